# Uploads one file from many concurrent clients with Python's http.client, which sends the whole body
# before it reads the answer. Prints one line per client: "status <code> <Retry-After>" or
# "error <exception>".
# Usage: crowd.py PORT TARGET FILE CLIENTS
import http.client
import sys
import threading

port, target, path, clients = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(path, "rb") as f:
    body = f.read()
lines = []
lock = threading.Lock()


def upload():
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request("POST", target, body=body, headers={"Content-Type": "application/octet-stream"})
        r = conn.getresponse()
        r.read()
        line = "status %d %s" % (r.status, r.getheader("Retry-After", "-"))
        conn.close()
    except Exception as e:  # a broken pipe or reset is what this program looks for
        line = "error %s: %s" % (type(e).__name__, e)
    with lock:
        lines.append(line)


threads = [threading.Thread(target=upload) for _ in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("\n".join(lines))
