// A QR code drawn on a canvas, for links another phone scans.

import qrcode from './vendor/qrcode.mjs';

/** Draws `text` as a QR code about 240 px wide, with its quiet zone, on `canvas`. */
export function drawQr(canvas, text) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const modules = qr.getModuleCount();
  const quiet = 4;
  const scale = Math.max(2, Math.floor(240 / (modules + quiet * 2)));
  const size = (modules + quiet * 2) * scale;
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, size, size);
  context.fillStyle = '#000';
  for (let row = 0; row < modules; row += 1) {
    for (let column = 0; column < modules; column += 1) {
      if (qr.isDark(row, column)) context.fillRect((column + quiet) * scale, (row + quiet) * scale, scale, scale);
    }
  }
}
