# A short, clean success: shown whole, as it was.
printf 'ok  \texample.com/parse/a\t0.112s\nok  \texample.com/parse/b\t0.087s\n'
