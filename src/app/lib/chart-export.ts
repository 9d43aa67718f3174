/**
 * Saving a chart the page drew (src/charts: a standalone <svg>, serialised by `svgMarkup`) as a
 * PNG drawn from that SVG onto a canvas in the page; `download` (lib/download.ts) saves the file.
 * The page's policy allows images from `data:` URLs only (index.html), so the SVG reaches the
 * canvas as a data URL; a plain SVG image does not taint the canvas, so it can be read back.
 */

/** The SVG text drawn onto a canvas at `scale` (2 = sharp on high-density screens), as PNG bytes. */
export async function svgToPng(svgText: string, scale = 2): Promise<Blob> {
  const image = new Image();
  const utf8 = new TextEncoder().encode(svgText);
  let binary = '';
  for (let i = 0; i < utf8.length; i += 0x8000) binary += String.fromCharCode(...utf8.subarray(i, i + 0x8000));
  image.src = `data:image/svg+xml;base64,${btoa(binary)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(image.naturalWidth * scale);
  canvas.height = Math.round(image.naturalHeight * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser cannot draw on a canvas');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no PNG'))), 'image/png'),
  );
}
