import { expect } from 'vitest';
import type { PrintJob, Printer } from '../../engine/contract/printing';
import type { TestEngine } from './engine';
import { sleep } from './orders';

/** Request helpers for print jobs (contract §12). */

export async function print(engine: TestEngine, orderId: string, body?: object, headers: Record<string, string> = {}): Promise<{ status: number; job: PrintJob }> {
  const response = await engine.request<{ data: PrintJob }>('POST', `/orders/${orderId}/print`, { ...(body !== undefined && { body }), headers });
  expect([200, 202], JSON.stringify(response.body)).toContain(response.status);
  return { status: response.status, job: response.body.data };
}

export async function jobOf(engine: TestEngine, jobId: string): Promise<PrintJob> {
  const response = await engine.request<{ data: PrintJob }>('GET', `/print-jobs/${jobId}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

/** Polls a job until `until` holds (or the time is up, which fails the test). */
export async function waitForJob(engine: TestEngine, jobId: string, until: (job: PrintJob) => boolean, timeoutMs = 20_000): Promise<PrintJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobOf(engine, jobId);
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`print job ${jobId} still ${JSON.stringify(job)} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

export async function printers(engine: TestEngine): Promise<Printer[]> {
  const response = await engine.request<{ data: Printer[] }>('GET', '/printers');
  expect(response.status).toBe(200);
  return response.body.data;
}
