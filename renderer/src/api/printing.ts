import type { PrintBody, PrintJob, Printer } from '../../../engine/contract/printing';
import { ApiError, networkError } from './errors';
import type { ErrorBody } from './types';

/**
 * The UI's calls for printing (contract §12): print an order, watch its job, the queue, the printers, and
 * the tickets PDF — fetched with the API key header and handed to the browser as a download (a plain link
 * could not carry the key).
 */
export interface PrintingClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly language: () => string;
}

export type { PrintJob, Printer };
export type PdfSize = 'a4' | '80mm';

let current: ReturnType<typeof createPrintingClient> | undefined;

export function setPrintingClient(client: ReturnType<typeof createPrintingClient>): void {
  current = client;
}

export function printingApi(): ReturnType<typeof createPrintingClient> {
  if (!current) throw new Error('the printing client is not set up');
  return current;
}

export function createPrintingClient(options: PrintingClientOptions) {
  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl}${path}`, {
        method,
        headers: { 'x-svc-api-key': options.apiKey, 'accept-language': options.language(), ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
    } catch {
      throw networkError('The engine could not be reached.');
    } finally {
      clearTimeout(timer);
    }
    if (response.ok) return response;
    const error: unknown = await response.json().catch(() => undefined);
    throw new ApiError(response.status, isErrorBody(error) ? error.error : { type: 'API_ERROR', code: 'UNREADABLE_ANSWER', message: response.statusText });
  }
  const json = async <T>(promise: Promise<Response>) => ((await (await promise).json()) as { data: T }).data;
  const id = encodeURIComponent;

  return {
    print: (orderId: string, body: PrintBody) => json<PrintJob>(call('POST', `/orders/${id(orderId)}/print`, body)),
    job: (jobId: string) => json<PrintJob>(call('GET', `/print-jobs/${id(jobId)}`)),
    jobs: (limit = 50) => json<PrintJob[]>(call('GET', `/print-jobs?limit=${limit}`)),
    printers: () => json<Printer[]>(call('GET', '/printers')),
    /** Fetches the PDF and saves it through a temporary object URL. */
    async downloadTicketsPdf(orderId: string, size: PdfSize): Promise<void> {
      const response = await call('GET', `/orders/${id(orderId)}/tickets.pdf?size=${size}`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `tickets-${orderId}-${size}.pdf`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  };
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' && body.error !== null && 'code' in body.error;
}
