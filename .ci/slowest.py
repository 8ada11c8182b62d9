"""Prints the slowest tests of a cargo-nextest JUnit report: `slowest.py REPORT [COUNT]`."""

import sys
import xml.etree.ElementTree as ElementTree


def main() -> None:
    report, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    cases = [
        (float(case.get("time", 0)), f"{case.get('classname')} {case.get('name')}")
        for case in ElementTree.parse(report).iter("testcase")
    ]
    cases.sort(reverse=True)
    print(f"== the {count} slowest of {len(cases)} tests (s), {sum(t for t, _ in cases):.0f} s in all")
    for seconds, name in cases[:count]:
        print(f"{seconds:7.1f}  {name}")


if __name__ == "__main__":
    main()
