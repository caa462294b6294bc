import { useState } from 'react';

/**
 * A picture from the catalog (an event's `image`, a venue's `banner`): an https: or data:image/ URL the engine
 * has checked. It is left out, without a broken-image sign, when there is none or it cannot load (an https:
 * picture while the venue is offline). `alt` names what it shows for screen readers.
 */
export function Picture({ src, alt, className }: { src: string | undefined; alt: string; className: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src === undefined || failed === src) return null;
  return <img className={className} src={src} alt={alt} decoding="async" referrerPolicy="no-referrer" onError={() => setFailed(src)} />;
}
