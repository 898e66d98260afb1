# pnpm install in a workspace (pnpm 9): progress lines, then a failing
# postinstall script (transcribed).
awk 'BEGIN { for (i = 1; i <= 4000; i++) printf "Progress: resolved %d, reused %d, downloaded %d, added %d\n", i * 3, i * 2, i, i }'
cat <<'ERR'
Packages: +12004
++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++
node_modules/.pnpm/sharp@0.33.5/node_modules/sharp: Running install script, failed in 2.1s
node_modules/.pnpm/sharp@0.33.5/node_modules/sharp install$ node install/check
│ sharp: Detected SHARP_IGNORE_GLOBAL_LIBVIPS to skip version detection
│ sharp: Attempting to build from source via node-gyp
│ gyp ERR! stack Error: not found: make
└─ Failed in 2.1s at /repo/node_modules/.pnpm/sharp@0.33.5/node_modules/sharp
 ELIFECYCLE  Command failed with exit code 1.
ERR
exit 1
