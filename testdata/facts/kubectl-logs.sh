# kubectl logs of a Go service: 30,000 request lines (klog's layout),
# a panic with its goroutine trace in the middle, the restart after it.
awk 'BEGIN { for (i = 1; i <= 15000; i++) printf "I1128 04:%02d:%02d.%06d       1 handler.go:88] \"request served\" method=\"GET\" path=\"/api/v1/orders/%d\" status=200 latency=\"%d.%dms\"\n", int(i / 600) % 60, int(i / 10) % 60, (i * 7919) % 1000000, 100000 + i, 1 + i % 9, i % 10 }'
cat <<'PANIC'
E1128 04:25:00.118342       1 handler.go:131] "order lookup failed" err="sql: no rows in result set" order=117731
panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x8f4a2c]

goroutine 4187 [running]:
github.com/acme/orders/internal/api.(*Handler).lookup(0xc0001a2000, {0xc000ab4f00, 0x6})
	/src/internal/api/handler.go:142 +0x8c
github.com/acme/orders/internal/api.(*Handler).ServeHTTP(0xc0001a2000, {0xb3c2e0, 0xc0004b61c0}, 0xc000a9e900)
	/src/internal/api/handler.go:95 +0x2f1
net/http.serverHandler.ServeHTTP({0xc0001b8000}, {0xb3c2e0, 0xc0004b61c0}, 0xc000a9e900)
	/usr/local/go/src/net/http/server.go:3210 +0x8e
net/http.(*conn).serve(0xc000114240, {0xb3d8a8, 0xc0001d2a20})
	/usr/local/go/src/net/http/server.go:2092 +0x5d0
created by net/http.(*Server).Serve in goroutine 1
	/usr/local/go/src/net/http/server.go:3360 +0x485
I1128 04:25:03.000012       1 main.go:41] "starting orders" version="2.8.1" commit="9f3c2ab"
PANIC
awk 'BEGIN { for (i = 15001; i <= 30000; i++) printf "I1128 04:%02d:%02d.%06d       1 handler.go:88] \"request served\" method=\"GET\" path=\"/api/v1/orders/%d\" status=200 latency=\"%d.%dms\"\n", int(i / 600) % 60, int(i / 10) % 60, (i * 7919) % 1000000, 100000 + i, 1 + i % 9, i % 10 }'
