# A short failure: gcc's error (captured from gcc 12), shown whole.
cat real/gcc-error.txt >&2
exit 1
