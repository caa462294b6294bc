import { api } from './service';
import type { PdfSize } from './types';

/**
 * Printing from the UI (contract §12). The calls themselves live on the one API client (client.ts: retries,
 * re-authentication after an engine restart); this adds the browser side of the tickets PDF, which needs the
 * key header a plain link could not carry, so it is fetched and handed over through a temporary object URL.
 */
export type { PdfSize, PrintBody, PrintJob, Printer } from './types';

export async function downloadTicketsPdf(orderId: string, size: PdfSize): Promise<void> {
  const url = URL.createObjectURL(await api().ticketsPdf(orderId, size));
  const link = document.createElement('a');
  link.href = url;
  link.download = `tickets-${orderId}-${size}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
