# vite build of a large app (vite 5's layout, transcribed): a long
# success with a warning and a summary at its end.
cat <<'HEAD'
vite v5.4.10 building for production...
transforming...
✓ 4127 modules transformed.
rendering chunks...
computing gzip size...
HEAD
awk 'BEGIN { for (i = 1; i <= 1800; i++) printf "dist/assets/route-%04d-%08x.js   %6.2f kB │ gzip:  %5.2f kB\n", i, (i * 2654435761) % 4294967296, 1 + (i * 37) % 90 + 0.37, 0.5 + (i * 13) % 30 + 0.21 }'
cat <<'TAIL'
dist/assets/index-4f3a2b1c.css            88.41 kB │ gzip:  14.02 kB
dist/assets/index-9c1d7e55.js            812.30 kB │ gzip: 241.77 kB

(!) Some chunks are larger than 500 kB after minification. Consider:
- Using dynamic import() to code-split the application
- Use build.rollupOptions.output.manualChunks to improve chunking: https://rollupjs.org/configuration-options/#output-manualchunks
- Adjust chunk size limit for this warning via build.chunkSizeWarningLimit.
✓ built in 38.41s
TAIL
