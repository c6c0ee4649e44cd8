#!/usr/bin/env python3
"""Makes this folder's JPEGs whose Multi-Picture index (APP2 "MPF", CIPA DC-007) points to a
"preview" that is none: past the file, at random bytes, at a picture larger than the photo, or
a list of a billion entries. Each must show the photo itself, decoded as if there were no index
(`PhotoDecoder+Preview`). The primary is the sample gallery's beach photo at a quarter of its
size through djpeg and cjpeg (libjpeg-turbo-progs). The files are committed: only whoever changes
the corpus runs this.
"""
import os, random, struct, subprocess

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
source = os.path.join(root, "sample-gallery", "travel", "beach-01.jpg")
ppm = subprocess.run(["djpeg", "-scale", "1/4", source], stdout=subprocess.PIPE, check=True).stdout
photo = subprocess.run(["cjpeg", "-quality", "85"], input=ppm, stdout=subprocess.PIPE, check=True).stdout


def index(entries, count=None):
    """A big-endian MPF index: version, then the entry list (attributes, length, offset)."""
    listing = b"".join(struct.pack(">IIIHH", a, n, o, 0, 0) for a, n, o in entries)
    count = len(listing) if count is None else count
    ifd = struct.pack(">H", 2) + struct.pack(">HHI", 0xB000, 7, 4) + b"0100" \
        + struct.pack(">HHII", 0xB002, 7, count, 8 + 2 + 24 + 4) + struct.pack(">I", 0)
    return b"MM\x00\x2a" + struct.pack(">I", 8) + ifd + listing


def with_preview(preview_at, preview_length, after=b"", count=None):
    """The photo with an MPF segment after SOI whose second entry, a large thumbnail, is at
    `preview_at` bytes from the index's start, then `after` appended to the file."""
    entries = [(0x20030000, end, 0), (0x00010002, preview_length, preview_at)]
    body = b"MPF\x00" + index(entries, count)
    return photo[:2] + b"\xff\xe2" + struct.pack(">H", 2 + len(body)) + body + photo[2:] + after


def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


start = 2 + 2 + 2 + 4      # SOI, the segment's marker and length, "MPF\0": where offsets count from
end = len(photo) + 2 + 2 + 4 + len(index([(0, 0, 0)] * 2))   # the photo with its index segment
write("mpf-preview-past-the-file.jpg", with_preview(end - start + 1_000_000, 200_000))
noise = random.Random(53).randbytes(6000)
write("mpf-preview-of-random-bytes.jpg", with_preview(end - start, len(noise), after=noise))
huge = bytearray(photo)
sof = huge.index(b"\xff\xc0")
huge[sof + 5:sof + 9] = struct.pack(">HH", 65535, 65535)
write("mpf-preview-claims-65535x65535.jpg", with_preview(end - start, len(huge), after=bytes(huge)))
write("mpf-entry-list-of-a-billion-entries.jpg", with_preview(end - start, len(photo), after=photo, count=16 << 26))
print("made 4 files in", here)
