# A 40,000-line make log with one gcc error in it (the error captured
# from gcc 12; the compile lines as make -k prints them).
awk 'BEGIN { for (i = 1; i <= 21000; i++) printf "gcc -O2 -Wall -Iinclude -c src/mod%05d.c -o build/mod%05d.o\n", i, i }'
echo "gcc -O2 -Wall -Iinclude -c src/parser.c -o build/parser.o"
cat real/gcc-error.txt >&2
echo "make: *** [Makefile:41: build/parser.o] Error 1" >&2
awk 'BEGIN { for (i = 21001; i <= 40000; i++) printf "gcc -O2 -Wall -Iinclude -c src/mod%05d.c -o build/mod%05d.o\n", i, i }'
echo "make: Target 'all' not remade because of errors." >&2
exit 2
