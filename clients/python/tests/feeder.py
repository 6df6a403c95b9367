"""An NMEA feed for the live-stream test (e2e.sh): serves the lines of a
capture file over TCP to the server that connects, 50 lines a second,
over and over. Usage: feeder.py PORT FILE."""

import socket
import sys
import time


def main():
    port, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "rb") as f:
        lines = [l.rstrip(b"\r\n") + b"\r\n" for l in f if l.strip()]
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(1)
    while True:
        conn, _ = srv.accept()
        try:
            while True:  # again and again: a report repeated after seconds is streamed again
                for i in range(0, len(lines), 5):
                    conn.sendall(b"".join(lines[i:i + 5]))
                    time.sleep(0.1)
        except OSError:
            conn.close()


if __name__ == "__main__":
    main()
