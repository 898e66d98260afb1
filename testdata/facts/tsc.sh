# tsc --listFiles on a monorepo package: 6,000 files listed, then two
# type errors and tsc's count (tsc 5's layout, transcribed).
awk 'BEGIN { split("es5 es2015.core es2015.collection es2016.array.include es2017.object dom dom.iterable", libs, " "); for (i in libs) printf "/repo/node_modules/typescript/lib/lib.%s.d.ts\n", libs[i]; for (i = 1; i <= 6000; i++) printf "/repo/packages/web/src/features/f%04d/index.ts\n", i }'
cat <<'ERR'
packages/web/src/features/f0412/price.ts(18,7): error TS2322: Type 'string' is not assignable to type 'number'.
packages/web/src/features/f3310/cart.ts(51,22): error TS2339: Property 'totl' does not exist on type 'Cart'.
Found 2 errors in 2 files.

Errors  Files
     1  packages/web/src/features/f0412/price.ts:18
     1  packages/web/src/features/f3310/cart.ts:51
ERR
exit 2
