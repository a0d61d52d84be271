// Draws the extension icon (media/icon.png, 128x128): an event tree of three rows on a dark tile.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const W = 128, H = 128;
const px = Buffer.alloc(W * H * 4);
const set = (x, y, [r, g, b, a = 255]) => { if (x < 0 || y < 0 || x >= W || y >= H) return; const i = (y * W + x) * 4; px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = a; };
const rect = (x0, y0, w, h, c) => { for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) set(x, y, c); };
const disc = (cx, cy, r, c) => { for (let y = -r; y <= r; y++) for (let x = -r; x <= r; x++) if (x * x + y * y <= r * r) set(cx + x, cy + y, c); };
// rounded tile
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
  const dx = Math.max(0, Math.abs(x - 63.5) - 48), dy = Math.max(0, Math.abs(y - 63.5) - 48);
  if (dx * dx + dy * dy <= 15 * 15) set(x, y, [30, 36, 48]);
}
const line = [120, 140, 170];
rect(30, 34, 4, 62, line);           // trunk
rect(30, 62, 24, 4, line);           // branch to row 2
rect(30, 92, 24, 4, line);           // branch to row 3
disc(32, 34, 9, [86, 156, 214]);     // root node
disc(58, 64, 8, [78, 201, 176]);     // ok child
disc(58, 94, 8, [241, 76, 76]);      // failed child
rect(48, 30, 56, 8, [200, 210, 225]); // labels
rect(72, 60, 34, 8, [200, 210, 225]);
rect(72, 90, 26, 8, [200, 210, 225]);
// PNG encoding
const raw = Buffer.alloc((W * 4 + 1) * H);
for (let y = 0; y < H; y++) { raw[y * (W * 4 + 1)] = 0; px.copy(raw, y * (W * 4 + 1) + 1, y * W * 4, (y + 1) * W * 4); }
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(W, 0); ihdr.writeUInt32BE(H, 4); ihdr[8] = 8; ihdr[9] = 6;
writeFileSync(new URL('../media/icon.png', import.meta.url), Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
