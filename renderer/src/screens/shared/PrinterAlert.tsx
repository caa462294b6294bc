import { useEffect } from 'react';
import { usePrintT } from '../../i18n/printing';
import { usePrinting, watchPrinters } from '../../stores/printing';

/** In the header: each configured printer that is down, so staff see it before a sale needs it. */
export function PrinterAlert() {
  const pt = usePrintT();
  const printers = usePrinting((state) => state.printers);
  const down = printers.filter((printer) => printer.state === 'down');
  useEffect(() => watchPrinters(), []);
  if (down.length === 0) return null;
  return (
    <p className="printer-alert" role="status">
      {down.map((printer) => (
        <span key={printer.id} className="printer-down" title={printer.reason}>
          {pt('print.down', { printer: printer.id })}
        </span>
      ))}
    </p>
  );
}
