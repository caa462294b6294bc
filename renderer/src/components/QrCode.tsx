import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** A ticket's code as a QR image (an SVG data URL: no inline style or script needed). */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then(
      (svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => live && setSrc(null),
    );
    return () => {
      live = false;
    };
  }, [text]);
  return src ? <img className="qr" src={src} alt={label} width={160} height={160} /> : <span className="qr-pending">{text}</span>;
}

/**
 * What a ticket's QR code says (contract §15): its signed code when it has one (a gate checks it by its signature
 * alone, offline), else its 20-character code (tickets sold before signed codes).
 */
export function ticketQrText(ticket: { code: string; signedCode?: string | undefined }): string {
  return ticket.signedCode ?? ticket.code;
}
