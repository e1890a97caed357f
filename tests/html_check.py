#!/usr/bin/env python3
"""The checks of tests/html_report.sh on one --html page: its DOM (as Chromium dumped it,
or the file itself where no browser is at hand), that it fetches nothing, and its
screenshot. usage: html_check.py transpose|divergence PAGE.html DOM.html [SHOT.png]"""
import re
import struct
import sys
import zlib
from html.parser import HTMLParser


class Page(HTMLParser):
    """The elements with their attributes, and each SVG picture's lane rows and texts."""

    def __init__(self):
        super().__init__()
        self.elements = []          # (tag, attrs)
        self.svgs = []              # {'cls', 'lanes', 'attrs': [...], 'texts': [...]}
        self.svg = None
        self.text_into = None
        self.style = ""
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag == "svg":
            self.svg = {"cls": a.get("class", ""), "lanes": 0, "attrs": [], "texts": [], "steps": 0}
            self.svgs.append(self.svg)
        elif self.svg is not None:
            self.svg["attrs"].append((tag, a))
            if tag == "g" and a.get("class") == "lane":
                self.svg["lanes"] += 1
            if tag == "g" and a.get("class") == "step":
                self.svg["steps"] += 1
        self.in_style = tag == "style"

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None
        self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        elif self.svg is not None:
            self.svg["texts"].append(data)


def check(cond, what):
    if not cond:
        print("html_check: " + what, file=sys.stderr)
        sys.exit(1)


def png_pixels(path, rows):
    """Width, height and the distinct colours of the first `rows` rows of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", path + " is not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype = ihdr[:4]
    check(depth == 8 and ctype in (2, 6), "unexpected PNG format %d/%d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(min(rows, h)):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 7):
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return w, h, colours


def main():
    which, page_path, dom_path = sys.argv[1:4]
    shot = sys.argv[4] if len(sys.argv) > 4 else None
    raw = open(page_path, encoding="utf-8").read()
    page = Page()
    page.feed(open(dom_path, encoding="utf-8").read())

    # nothing fetched: a strict CSP, no script or stylesheet from a file, no URL to a server
    csp = [a.get("content", "") for t, a in page.elements
           if t == "meta" and a.get("http-equiv", "").lower() == "content-security-policy"]
    check(csp and "default-src 'none'" in csp[0], "no Content-Security-Policy with default-src 'none'")
    for tag, a in page.elements:
        for key in ("src", "href", "data", "action", "xlink:href"):
            v = a.get(key, "")
            check(not re.match(r"\s*(https?:)?//", v), "%s %s=%s fetches from the network" % (tag, key, v))
        check(not (tag == "script" and "src" in a), "a script from a file")
        check(not (tag == "link" and "stylesheet" in a.get("rel", "")), "a stylesheet from a file")
    check(not re.search(r"@import|url\(", page.style), "the style fetches something (@import or url())")
    check(not re.search(r"<script", raw, re.I), "the page has a script; none is needed")

    banks = [s for s in page.svgs if "banks" in s["cls"]]
    if which == "transpose":
        check(len(banks) >= 2, "fewer than 2 lanes-to-banks pictures")
        for s in banks:
            check(s["lanes"] == 32, "a lanes-to-banks picture with %d lane rows, not 32" % s["lanes"])
        # the comparison: the 32x32 tile's column read, then the 32x33 tile's
        wf = [a.get("data-wavefronts") for s in banks[:2] for t, a in s["attrs"] if "data-wavefronts" in a]
        check(wf == ["32", "1"], "wavefronts of the compared requests are %s, not 32 then 1" % wf)
        texts = " ".join(banks[0]["texts"]) + " | " + " ".join(banks[1]["texts"])
        check("32 wavefronts" in texts and "1 wavefront" in texts, "the wavefront counts are not written on them")
        sectors = [s for s in page.svgs if "sectors" in s["cls"]]
        check(sectors and all(s["lanes"] == 32 for s in sectors), "no lanes-to-sectors picture with 32 lanes")
    else:
        div = [s for s in page.svgs if "divergence" in s["cls"]]
        check(len(div) >= 4, "fewer than 4 divergence timelines")
        first = div[0]
        check(first["steps"] > 10, "the first timeline has %d rows" % first["steps"])
        t = " ".join(first["texts"])
        check("split" in t and "reconverged" in t, "the divergent kernel's split and reconvergence are not marked")
    check(all(s["texts"] for s in page.svgs), "a picture without text labels")
    check(all("<title>" in raw for _ in [0]), "pictures without titles")

    if shot:
        w, h, colours = png_pixels(shot, 500)
        check((w, h) == (1280, 2000), "the screenshot is %dx%d, not 1280x2000" % (w, h))
        check(len(colours) >= 8, "the screenshot's top is nearly one colour (%d colours)" % len(colours))
    print("html_check: %s ok" % which)


main()
