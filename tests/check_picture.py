#!/usr/bin/env python3
"""Check that a PNG screenshot is not blank: decode it (8-bit RGB/RGBA, the
form Chromium writes), then require enough non-white pixels and each of the
given colours (hex, matched within a tolerance) to appear. Decoded by
Pillow where installed (python3-pil: .ci/run installs it), in C; else by
the standard library alone, here, at 0.25-0.5 CPU-s a screenshot (the
filters are Python loops). Usage: check_picture.py FILE.png [RRGGBB ...]"""
import collections
import struct
import sys
import zlib

try:
    from PIL import Image
except ImportError:
    Image = None


def rgb(path):
    """The PNG file as a Pillow image in RGB (an alpha channel dropped)."""
    with Image.open(path) as im:
        if im.format != "PNG":
            raise SystemExit(f"{path}: not a PNG file")
        return im.convert("RGB")


def decode(path):
    """width, height, bytes a pixel and the rows (bytes, RGB or RGBA)."""
    if Image is not None:
        im = rgb(path)
        width, height = im.size
        data = im.tobytes()
        stride = 3 * width
        return width, height, 3, [data[y * stride:(y + 1) * stride] for y in range(height)]
    return decode_stdlib(path)


def colours(path):
    """width, height and how many pixels have each (r, g, b)."""
    if Image is not None:
        im = rgb(path)
        width, height = im.size
        return width, height, {c: n for n, c in im.getcolors(width * height)}
    width, height, bpp, rows = decode_stdlib(path)
    count = collections.Counter()
    for line in rows:
        count.update(zip(line[0::bpp], line[1::bpp], line[2::bpp]))
    return width, height, count


def decode_stdlib(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG file")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit(f"{path}: unsupported PNG (depth {depth}, type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    width, height, count = colours(path)
    ink, seen = 0, {c: 0 for c in wanted}
    want = {c: tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)) for c in wanted}
    for (r, g, b), n in count.items():   # each colour once, with its pixels
        if r < 235 or g < 235 or b < 235:
            ink += n
        for c, (wr, wg, wb) in want.items():
            if abs(r - wr) < 40 and abs(g - wg) < 40 and abs(b - wb) < 40:
                seen[c] += n
    share = ink / (width * height)
    print(f"{path}: {width}x{height}, {100 * share:.2f}% drawn, colours {seen}")
    missing = [c for c, n in seen.items() if n < 5]
    if share < 0.005 or missing:
        raise SystemExit(f"{path}: looks blank or incomplete (missing {missing})")


if __name__ == "__main__":
    main()
