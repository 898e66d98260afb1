# npm install (npm 10): deprecation warnings by the thousand, then the
# error that ends it (transcribed).
exec 1>&2
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "npm warn deprecated pkg-%d@1.%d.0: This version is no longer supported. Please upgrade.\n", i, i % 9 }'
cat <<'ERR'
npm error code ERESOLVE
npm error ERESOLVE unable to resolve dependency tree
npm error
npm error While resolving: web@2.4.0
npm error Found: react@18.3.1
npm error node_modules/react
npm error   react@"^18.2.0" from the root project
npm error
npm error Could not resolve dependency:
npm error peer react@"^17.0.0" from legacy-datepicker@3.1.2
npm error node_modules/legacy-datepicker
npm error   legacy-datepicker@"^3.1.0" from the root project
npm error
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-28T05_01_12_345Z-debug-0.log
ERR
exit 1
