#!/bin/sh
# Makes the sequential (baseline) JPEGs in this folder, each a layout of blocks and scans that
# JPEGEighth's sequential reading passes over (Tests/PhotoGridDecodingTests/SequentialDCTests.swift
# compares it with libjpeg on each). Needs cjpeg and djpeg (libjpeg-turbo-progs) and ImageMagick's
# convert; the files are committed, so only whoever changes the set runs it:
# sh Tests/Fixtures/sequential/make.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An odd size, so that the last MCU of each row and column is cut.
djpeg "$root/sample-gallery/travel/beach-01.jpg" | convert - -resize 333x211! ppm:"$tmp/source.ppm"
# Each component in a scan of its own (a sequential file may split its components so).
cat > "$tmp/separate.scans" <<'SCANS'
0: 0 63 0 0;
1: 0 63 0 0;
2: 0 63 0 0;
SCANS
cjpeg -sample 2x2 "$tmp/source.ppm" > "$here/420.jpg"
cjpeg -sample 2x1 "$tmp/source.ppm" > "$here/422.jpg"
cjpeg -sample 1x1 "$tmp/source.ppm" > "$here/444.jpg"
cjpeg -sample 1x2,1x1,1x1 "$tmp/source.ppm" > "$here/440.jpg"
cjpeg -grayscale "$tmp/source.ppm" > "$here/grey.jpg"
cjpeg -sample 1x1 -rgb "$tmp/source.ppm" > "$here/rgb.jpg"
cjpeg -sample 2x2 -restart 1 "$tmp/source.ppm" > "$here/restart-every-row.jpg"
cjpeg -sample 2x2 -restart 5B "$tmp/source.ppm" > "$here/restart-every-5-mcus.jpg"
cjpeg -sample 2x2 -scans "$tmp/separate.scans" "$tmp/source.ppm" > "$here/scan-per-component.jpg"
# Quality 100: many blocks use all 63 AC coefficients and end without an end-of-block code.
cjpeg -sample 1x1 -quality 100 "$tmp/source.ppm" > "$here/quality-100.jpg"
# Huffman tables fitted to the picture: long codes, and codes that libjpeg's defaults lack.
cjpeg -sample 2x2 -quality 97 -optimize "$tmp/source.ppm" > "$here/optimized-tables.jpg"
