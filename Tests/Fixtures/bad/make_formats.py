#!/usr/bin/env python3
"""Makes the hostile PNG, WebP, GIF, HEIF and AVIF files of this folder, one per case, named
after it (make.py makes the JPEG ones). PNG and GIF are written here byte by byte; WebP, HEIC and
AVIF start from cwebp's and heif-enc's output (webp, libheif-examples) of the same quarter-size
beach photo. The files are committed: only whoever changes the corpus runs this.
"""
import os, struct, subprocess, tempfile, zlib

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
source = os.path.join(root, "sample-gallery", "travel", "beach-01.jpg")


def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


def made(tool_args, suffix):
    """The bytes a tool writes to a temporary file of `suffix` from the quarter-size source."""
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "in.png")
        subprocess.run(["convert", source, "-resize", "25%", png], check=True)
        out = os.path.join(tmp, "out" + suffix)
        subprocess.run(tool_args(png, out), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return open(out, "rb").read()


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, rows, extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def gradient_rows(width, height):
    return b"".join(b"\x00" + bytes((x * 255 // width, y * 255 // height, 128)[c] for x in range(width) for c in range(3))
                    for y in range(height))


# PNG
good = png(256, 192, zlib.compress(gradient_rows(256, 192)))
write("png-truncated-in-the-image-data.png", good[: len(good) * 2 // 3])
bad_crc = bytearray(good)
bad_crc[33 + 8 + 100] ^= 0xFF          # a byte of IDAT's data: its CRC no longer matches
write("png-chunk-crc-wrong.png", bytes(bad_crc))
write("png-header-claims-100000x100000.png", png(100_000, 100_000, zlib.compress(b"\x00" * 1000)))
# 64 x 64 pixels, then a zlib stream that goes on to 1 GB of zeros: only the image's rows are inflated.
bomb = zlib.compressobj(9)
stream = bomb.compress(gradient_rows(64, 64))
zeros = b"\x00" * (1 << 20)
for _ in range(1024):
    stream += bomb.compress(zeros)
write("png-zlib-stream-expands-to-1-gb.png", png(64, 64, stream + bomb.flush()))

# GIF: a 2-colour 16 x 16 picture, LZW at the minimum code size 2.
def gif_frame(left=0, top=0, width=16, height=16):
    # Every pixel colour 1, a clear code (4) before each pair so that the table never grows past
    # 3-bit codes, then the end code (5), packed 3 bits a code.
    pixels = width * height
    codes = [c for _ in range(pixels // 2) for c in (4, 1, 1)] + ([4, 1] if pixels % 2 else []) + [5]
    bits, nbits, out = 0, 0, bytearray()
    for code in codes:
        bits |= code << nbits
        nbits += 3
        while nbits >= 8:
            out.append(bits & 0xFF); bits >>= 8; nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    blocks = b"".join(bytes([len(out[i:i + 255])]) + bytes(out[i:i + 255]) for i in range(0, len(out), 255))
    return b"," + struct.pack("<HHHHB", left, top, width, height, 0) + b"\x02" + blocks + b"\x00"


def gif(width, height, frames):
    return b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x20\x60\xa0\xf0\xd0\x40" + frames + b";"


good_gif = gif(16, 16, gif_frame())
write("gif-truncated-in-the-first-frame.gif", good_gif[: len(good_gif) - 12])
write("gif-screen-65535x65535.gif", gif(65535, 65535, gif_frame()))
write("gif-animation-of-100000-frames.gif", gif(16, 16, gif_frame() + gif_frame(0, 0, 1, 1) * 100_000))
lzw = bytearray(good_gif)
# After the 13-byte header, the 6-byte palette and the 10-byte frame descriptor: the LZW code
# size, the first block's length, then its codes, here made 7s: codes past the table.
lzw[31] = 0xFF
lzw[32] = 0xFF
write("gif-lzw-codes-past-the-table.gif", bytes(lzw))

# WebP
lossy = made(lambda i, o: ["cwebp", "-q", "80", i, "-o", o], ".webp")
write("webp-truncated-in-the-image-data.webp", lossy[: len(lossy) * 3 // 4])
riff = bytearray(lossy)
riff[16:20] = struct.pack("<I", 0x7FFFFFF0)   # the VP8 chunk says it runs far past the file
write("webp-chunk-size-past-the-file.webp", bytes(riff))

# HEIF and AVIF
heic = made(lambda i, o: ["heif-enc", "-q", "60", i, "-o", o], ".heic")
avif = made(lambda i, o: ["heif-enc", "-A", "-q", "60", i, "-o", o], ".avif")
write("heic-truncated-in-the-image-data.heic", heic[: len(heic) * 2 // 3])
write("avif-truncated-in-the-image-data.avif", avif[: len(avif) * 2 // 3])
huge = bytearray(heic)
at = heic.index(b"ispe")
huge[at + 8:at + 16] = struct.pack(">II", 100_000, 100_000)
write("heic-ispe-claims-100000x100000.heic", bytes(huge))
boxes = bytearray(heic)
at = heic.index(b"meta")
boxes[at - 4:at] = struct.pack(">I", 0xFFFFFF00)  # the meta box says it is 4 GB long
write("heic-meta-box-size-past-the-file.heic", bytes(boxes))

# AVIF through libavif (AVIF.swift), where libheif reads what libavif will not.
big = bytearray(avif)
at = avif.index(b"ispe")
big[at + 8:at + 16] = struct.pack(">II", 100_000, 100_000)
write("avif-ispe-claims-100000x100000.avif", bytes(big))
small = bytearray(avif)
small[at + 8:at + 16] = struct.pack(">II", 16, 16)   # the coded picture is far larger
write("avif-ispe-smaller-than-the-coded-picture.avif", bytes(small))
damaged = bytearray(avif)
start = avif.index(b"mdat") + 4
for i in range(start + 40, len(damaged), 97):      # the AV1 data, hit every 97 bytes past its headers
    damaged[i] ^= 0x5A
write("avif-av1-data-damaged.avif", bytes(damaged))
