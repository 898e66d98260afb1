# A Python traceback (captured from CPython 3.11) in the middle of
# 50,000 lines of a job's progress.
awk 'BEGIN { for (i = 1; i <= 25000; i++) printf "INFO ingest: batch %d: 512 records in %d ms\n", i, 40 + (i * 7) % 23 }'
cat real/python-traceback.txt
echo "WARNING ingest: batch 25001 failed, continuing"
awk 'BEGIN { for (i = 25002; i <= 50000; i++) printf "INFO ingest: batch %d: 512 records in %d ms\n", i, 40 + (i * 7) % 23 }'
echo "ingest finished: 49999 batches, 1 failed"
exit 0
