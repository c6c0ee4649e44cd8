#!/bin/sh
# Makes the progressive JPEGs in this folder, each a way of laying out the DC scans that
# JPEGEighth reads (Tests/PhotoGridDecodingTests/ProgressiveDCTests.swift compares it with
# libjpeg on each). Needs cjpeg and djpeg (libjpeg-turbo-progs) and ImageMagick's convert; the
# files are committed, so only whoever changes the set runs it: sh Tests/Fixtures/progressive/make.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An odd size, so that the last MCU of each row and column is cut.
djpeg "$root/sample-gallery/travel/beach-01.jpg" | convert - -resize 333x211! ppm:"$tmp/source.ppm"
# The DC of each component in a scan of its own, then the rest as cjpeg's default script does.
cat > "$tmp/separate.scans" <<'SCANS'
0: 0 0 0 1;
1: 0 0 0 1;
2: 0 0 0 1;
0: 1 5 0 2;
2: 1 63 0 1;
1: 1 63 0 1;
0: 6 63 0 2;
0: 1 63 2 1;
0,1,2: 0 0 1 0;
0: 1 63 1 0;
SCANS
cjpeg -progressive -sample 2x2 "$tmp/source.ppm" > "$here/420.jpg"
cjpeg -progressive -sample 2x1 "$tmp/source.ppm" > "$here/422.jpg"
cjpeg -progressive -sample 1x1 "$tmp/source.ppm" > "$here/444.jpg"
cjpeg -progressive -sample 1x2,1x1,1x1 "$tmp/source.ppm" > "$here/440.jpg"
cjpeg -progressive -grayscale "$tmp/source.ppm" > "$here/grey.jpg"
cjpeg -progressive -sample 2x2 -restart 1 "$tmp/source.ppm" > "$here/restart-every-row.jpg"
cjpeg -progressive -sample 2x2 -restart 5B "$tmp/source.ppm" > "$here/restart-every-5-mcus.jpg"
cjpeg -progressive -sample 2x2 -scans "$tmp/separate.scans" "$tmp/source.ppm" > "$here/dc-scan-per-component.jpg"
cjpeg -progressive -sample 1x1 -rgb "$tmp/source.ppm" > "$here/rgb.jpg"
cjpeg -progressive -sample 2x2 -quality 30 -restart 2B -scans "$tmp/separate.scans" "$tmp/source.ppm" > "$here/separate-scans-with-restarts.jpg"
