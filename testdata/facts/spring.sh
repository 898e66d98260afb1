# A Spring Boot service's log (Spring Boot 3's layout, transcribed):
# 20,000 lines of scheduled work, a Java stack trace (the trace captured
# from OpenJDK 17), 6,000 more lines, the context shutting down.
cat <<'HEAD'
  .   ____          _            __ _ _
 /\\ / ___'_ __ _ _(_)_ __  __ _ \ \ \ \
( ( )\___ | '_ | '_| | '_ \/ _` | \ \ \ \
 \\/  ___)| |_)| | | | | || (_| |  ) ) ) )
  '  |____| .__|_| |_|_| |_\__, | / / / /
 =========|_|==============|___/=/_/_/_/

 :: Spring Boot ::                (v3.3.4)

2026-11-28T05:00:00.101Z  INFO 4242 --- [orders] [           main] c.a.orders.OrdersApplication             : Starting OrdersApplication v2.8.1 using Java 17.0.12 with PID 4242
2026-11-28T05:00:01.877Z  INFO 4242 --- [orders] [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat started on port 8080 (http) with context path '/'
HEAD
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "2026-11-28T05:%02d:%02d.%03dZ  INFO 4242 --- [orders] [   scheduling-1] c.a.orders.sync.StockSync                : synced %d SKUs from warehouse %d in %d ms\n", int(i / 340) % 60, int(i / 6) % 60, (i * 37) % 1000, 100 + i % 400, 1 + i % 6, 20 + (i * 13) % 300 }'
echo "2026-11-28T05:59:01.334Z ERROR 4242 --- [orders] [   scheduling-1] o.s.s.s.TaskUtils\$LoggingErrorHandler     : Unexpected error occurred in scheduled task"
cat real/java-trace.txt | sed 1d | sed '1i java.lang.IllegalStateException: Failed to reserve stock for order 7731'
awk 'BEGIN { for (i = 20001; i <= 26000; i++) printf "2026-11-28T05:%02d:%02d.%03dZ  INFO 4242 --- [orders] [   scheduling-1] c.a.orders.sync.StockSync                : synced %d SKUs from warehouse %d in %d ms\n", 59, int(i / 6) % 60, (i * 37) % 1000, 100 + i % 400, 1 + i % 6, 20 + (i * 13) % 300 }'
cat <<'TAIL'
2026-11-28T05:59:02.001Z  INFO 4242 --- [orders] [ionShutdownHook] o.s.b.w.e.tomcat.GracefulShutdown        : Commencing graceful shutdown. Waiting for active requests to complete
2026-11-28T05:59:02.015Z  INFO 4242 --- [orders] [tomcat-shutdown] o.s.b.w.e.tomcat.GracefulShutdown        : Graceful shutdown complete
TAIL
exit 1
