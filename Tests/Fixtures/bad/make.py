#!/usr/bin/env python3
"""Makes the hostile-file corpus in this folder: one file per case, named after it.

Run from anywhere: python3 Tests/Fixtures/bad/make.py. It needs cjpeg and djpeg
(libjpeg-turbo-progs) and ImageMagick's convert for the CMYK case; the files are committed, so
only whoever changes the corpus runs it. What photogrid must make of each file is in
Tests/PhotoGridCoreTests/BadFilesTests.swift; why each case matters is in README.md.
"""
import os, random, struct, subprocess, zlib

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
source = os.path.join(root, "sample-gallery", "travel", "beach-01.jpg")


def run(args, data=None):
    return subprocess.run(args, input=data, stdout=subprocess.PIPE, check=True).stdout


def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


def segments(jpeg):
    """(marker, start, end) of each marker segment before the first scan's data, SOS included."""
    out, i = [], 2
    while i + 4 <= len(jpeg):
        marker = jpeg[i + 1]
        length = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        out.append((marker, i, i + 2 + length))
        if marker == 0xDA:
            break
        i += 2 + length
    return out


def insert_after_soi(jpeg, extra):
    return jpeg[:2] + extra + jpeg[2:]


def app(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def tiff_le(entries, next_ifd=0, extra=b""):
    """A little-endian TIFF with IFD0 at offset 8: entries are (tag, type, count, value-or-offset)."""
    body = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        body += struct.pack("<HHII", tag, kind, count, value)
    return body + struct.pack("<I", next_ifd) + extra


ppm = run(["djpeg", "-scale", "1/4", source])          # 600x400
base = run(["cjpeg", "-quality", "85"], ppm)
progressive = run(["cjpeg", "-quality", "85", "-progressive"], ppm)

# Empty and cut short.
write("empty.jpg", b"")
write("only-the-start-marker.jpg", base[:2])
sof = next(s for s in segments(base) if s[0] == 0xC0)
write("truncated-in-the-frame-header.jpg", base[:sof[1] + 6])
sos = next(s for s in segments(base) if s[0] == 0xDA)
write("truncated-halfway-through-the-scan.jpg", base[:(sos[2] + len(base)) // 2])
write("truncated-before-the-end-marker.jpg", base[:-2])
# Cut halfway through the fifth of its ten scans, as an interrupted copy would be: the DC
# values and the first AC coefficients of every component have come, which is all a picture at
# 2/8 scale uses; a larger one needs the rest.
scan_starts = [i for i in range(len(progressive) - 1) if progressive[i] == 0xFF and progressive[i + 1] == 0xDA]
write("progressive-cut-during-the-fifth-scan.jpg", progressive[:(scan_starts[4] + scan_starts[5]) // 2])

# Not JPEGs at all, named .jpg.
write("random-bytes.jpg", random.Random(2026).randbytes(4096))
png_rows = b"".join(b"\x00" + b"".join(bytes([x * 16, y * 16, 128]) for x in range(16)) for y in range(16))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
write("png-named-jpg.jpg", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
      + chunk(b"IDAT", zlib.compress(png_rows)) + chunk(b"IEND", b""))
write("text-named-jpg.jpg", b"These are holiday notes, not a photo.\n" * 20)

# Headers that lie.
def with_size(jpeg, width, height):
    at = sof[1] + 5
    return jpeg[:at] + struct.pack(">HH", height, width) + jpeg[at + 4:]
write("header-claims-65535x65535.jpg", with_size(base, 65535, 65535))
write("header-claims-zero-width.jpg", with_size(base, 0, 400))
twelve = bytearray(base)
twelve[sof[1] + 1] = 0xC1          # extended sequential
twelve[sof[1] + 4] = 12            # 12 bits a sample
write("12-bit-samples.jpg", bytes(twelve))
write("thousands-of-empty-segments.jpg", insert_after_soi(base, app(0xEF, b"") * 20000))
zero_length = bytes([0xFF, 0xE1, 0x00, 0x00])
write("segment-length-zero.jpg", insert_after_soi(base, zero_length))
write("fill-bytes-instead-of-a-marker.jpg", base[:2] + b"\xff" * 200000 + base[2:])
# A progressive file of 15 MP whose tiny 63rd-coefficient scan comes 5,000 times: each copy is
# a pass over every block (about 10 s for djpeg), in a file of 400 KB.
flat = b"P6\n4800 3200\n255\n" + bytes([96, 128, 160]) * (4800 * 3200)
script = os.path.join(here, ".scans.txt")
with open(script, "w") as f:
    f.write("0,1,2: 0-0, 0, 0;\n0: 1-62, 0, 0;\n0: 63-63, 0, 0;\n1: 1-63, 0, 0;\n2: 1-63, 0, 0;\n")
many = run(["cjpeg", "-quality", "85", "-scans", script], flat)
os.remove(script)
starts = [i for i in range(len(many) - 1) if many[i] == 0xFF and many[i + 1] == 0xDA]
tiny = many[starts[2]:starts[3]]
write("progressive-with-5000-scans.jpg", many[:starts[3]] + tiny * 4999 + many[starts[3]:])

# Valid, if unusual, JPEGs: decoded.
write("arithmetic-coded.jpg", run(["cjpeg", "-quality", "85", "-arithmetic"], ppm))
write("grayscale.jpg", run(["cjpeg", "-quality", "85", "-grayscale"], ppm))
cmyk = os.path.join(here, "cmyk-adobe.jpg")
subprocess.run(["convert", "ppm:-", "-colorspace", "CMYK", "-quality", "85", cmyk], input=ppm, check=True)

# Metadata that points where it should not.
outside = tiff_le([(0x010E, 2, 40, 0x7FFF0000),        # ImageDescription far past the segment
                   (0x8769, 4, 1, 0xFFFFFFF0),         # Exif IFD past the end
                   (0x8825, 4, 1, 8)])                  # GPS IFD at IFD0 itself
write("exif-offsets-outside-the-segment.jpg", insert_after_soi(base, app(0xE1, b"Exif\x00\x00" + outside)))
loop = tiff_le([(0x0112, 3, 1, 6)], next_ifd=8)          # IFD0's next IFD is IFD0
write("exif-ifd-chain-loops-to-itself.jpg", insert_after_soi(base, app(0xE1, b"Exif\x00\x00" + loop)))
thumb = tiff_le([(0x0112, 3, 1, 1)], next_ifd=26,
                extra=struct.pack("<H", 2) + struct.pack("<HHII", 0x0201, 4, 1, 0x00010000)
                + struct.pack("<HHII", 0x0202, 4, 1, 0x7FFFFFFF) + struct.pack("<I", 0))
write("exif-thumbnail-past-the-segment.jpg", insert_after_soi(base, app(0xE1, b"Exif\x00\x00" + thumb)))
icc = b"".join(app(0xE2, b"ICC_PROFILE\x00" + bytes([n, 16]) + bytes(65519)) for n in range(1, 17))
write("icc-profile-of-1-mb.jpg", insert_after_soi(base, icc))
xmp = (b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta><rdf:RDF><rdf:Description><dc:description><rdf:Alt><rdf:li>"
       + b"<b>" * 10000 + b"A" * 20000 + b"</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>")
xmp = xmp[:65533 - 4]
write("xmp-segment-full-and-unclosed.jpg", insert_after_soi(base, app(0xE1, xmp)))
print("made", len([n for n in os.listdir(here) if n.endswith(".jpg")]), "files in", here)
