# docker build --progress=plain (BuildKit): apt-get and a compile step
# that fails (BuildKit's layout, transcribed; the times made up).
exec 1>&2
cat <<'HEAD'
#0 building with "default" instance using docker driver

#1 [internal] load build definition from Dockerfile
#1 transferring dockerfile: 612B done
#1 DONE 0.0s

#2 [internal] load metadata for docker.io/library/debian:bookworm-slim
#2 DONE 0.9s

#3 [1/5] FROM docker.io/library/debian:bookworm-slim@sha256:5f21ebd358442f40099c997a3f4db906a7b1bd872249e67559f55de654b55d3b
#3 CACHED

#4 [2/5] RUN apt-get update && apt-get install -y build-essential libpq-dev
HEAD
awk 'BEGIN { for (i = 1; i <= 6000; i++) printf "#4 %d.%03d Get:%d http://deb.debian.org/debian bookworm/main amd64 libpkg%d amd64 1.%d-%d [%d kB]\n", 1 + int(i / 400), (i * 7) % 1000, i, i, i % 17, i % 5, 20 + (i * 13) % 900 }'
awk 'BEGIN { for (i = 1; i <= 6000; i++) printf "#4 %d.%03d Setting up libpkg%d:amd64 (1.%d-%d) ...\n", 16 + int(i / 400), (i * 11) % 1000, i, i % 17, i % 5 }'
cat <<'MID'
#4 DONE 41.2s

#5 [3/5] COPY . /src
#5 DONE 0.1s

#6 [4/5] RUN make -C /src
#6 0.412 cc -O2 -c server.c -o server.o
#6 0.988 server.c:212:9: error: implicit declaration of function 'pq_connect' [-Wimplicit-function-declaration]
#6 1.004 make: *** [Makefile:12: server.o] Error 1
#6 ERROR: process "/bin/sh -c make -C /src" did not complete successfully: exit code: 2
------
 > [4/5] RUN make -C /src:
0.412 cc -O2 -c server.c -o server.o
0.988 server.c:212:9: error: implicit declaration of function 'pq_connect' [-Wimplicit-function-declaration]
1.004 make: *** [Makefile:12: server.o] Error 1
------
Dockerfile:9
--------------------
   7 |     COPY . /src
   8 |     
   9 | >>> RUN make -C /src
  10 |     
--------------------
ERROR: failed to solve: process "/bin/sh -c make -C /src" did not complete successfully: exit code: 2
MID
exit 1
