"""Puts `perf report --sort dso,sym` samples into the rooms a move passes through.

Reads the report on stdin; prints each room's share of the service's samples, and the ten
hottest symbols of the rooms that are not obvious from their names. The rules are matched in
order: the first that fits a sample's library and symbol names its room.
"""

import re
import sys
from collections import defaultdict

ROOMS = [
    ("kernel (syscalls, network, scheduler)", r"^\[kernel", r""),
    ("malloc and free", r"", r"^(_?mi_|malloc|free|cfree|realloc|calloc|_int_|unlink_chunk"
     r"|tcache|__rdl_|__rust_alloc|__rust_dealloc|__rust_realloc)"),
    ("memcpy and other libc", r"libc|ld-linux", r""),
    ("JSON (serde, serde_json)", r"", r"serde|json|ryu|itoa"),
    ("SQL and the driver (diesel, tokio-postgres, deadpool)", r"",
     r"diesel|postgres|deadpool|bb8|fallible_iterator"),
    ("tracing and metrics", r"", r"tracing|metrics|prometheus"),
    ("HTTP and actix", r"", r"actix|h1|http::|httparse|bytes::|mio::|socket2|percent_encoding"
     r"|language_tags|mime|url::|cookie|date_header|HeaderMap"),
    ("async runtime and wake-ups (tokio, futures)", r"", r"tokio|futures|parking_lot|crossbeam"
     r"|std::sync|std::thread|Waker|waker|event_listener|async_task"),
    ("the rules (games, referee)", r"", r"referee::games|referee::referee"),
    ("move cache, group commit, store", r"", r"referee::store"),
    ("views, replies, matches (the service's own code)", r"", r"referee::"),
    ("hashing, uuid, time, other crates", r"", r""),
]

LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)$")


def room_of(dso, symbol):
    for name, dso_pattern, symbol_pattern in ROOMS:
        if dso_pattern and not re.search(dso_pattern, dso):
            continue
        if symbol_pattern and not re.search(symbol_pattern, symbol):
            continue
        return name
    return ROOMS[-1][0]


def main():
    shares = defaultdict(float)
    symbols = defaultdict(list)
    for line in sys.stdin:
        found = LINE.match(line)
        if not found:
            continue
        share, dso, symbol = float(found[1]), found[2], found[3].strip()
        room = room_of(dso, symbol)
        shares[room] += share
        symbols[room].append((share, symbol))
    total = sum(shares.values()) or 1
    print(f"{'room':<58} share")
    for name, _, _ in ROOMS:
        print(f"{name:<58} {100 * shares[name] / total:5.1f} %")
    for room in ("kernel (syscalls, network, scheduler)",
                 "views, replies, matches (the service's own code)",
                 "hashing, uuid, time, other crates"):
        print(f"\nhottest in {room}:")
        for share, symbol in sorted(symbols[room], reverse=True)[:10]:
            print(f"  {100 * share / total:5.2f} %  {symbol[:110]}")


if __name__ == "__main__":
    main()
