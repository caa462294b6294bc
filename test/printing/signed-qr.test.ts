import { generateKeyPairSync, sign } from 'node:crypto';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../engine/contract/order';
import { formatSignedCode, signedPayload } from '../../engine/domain/signed-code';
import { printDocument } from '../../engine/printing/document';
import { encodeEscPos, LINE_DOTS, QR_SIZE, type EscPosPaper } from '../../engine/printing/escpos';
import { renderHtml } from '../../engine/printing/html';
import { decodeEscPos, slipsOf, textOf } from '../helpers/escpos-decode';
import { fixedOrder } from './fixed-order';

/**
 * Printed tickets with a signed code (issue #26, contract §15): the QR code encodes the signed code, the
 * 20-character code is still printed as text to be typed in; a ticket of before (no signed code) keeps its code in
 * the QR. The QR of a ~300-character signed code fits the paper's line at the module size used.
 */

const { privateKey } = generateKeyPairSync('ed25519');
const signedOrder = (): Order => {
  const order = fixedOrder();
  return {
    ...order,
    tickets: order.tickets.map((ticket) => {
      const payload = signedPayload({ code: ticket.code, occurrenceId: 'tempest-2027-04-02', areaId: 'stalls', seat: ticket.seat ?? null, orderId: order.id });
      return { ...ticket, signedCode: formatSignedCode(payload, sign(null, payload, privateKey), 'AbCdEfGhIjKl') };
    }),
  };
};
const options = { what: 'tickets', language: 'en', timeZone: 'Europe/Berlin', openDrawer: false } as const;

describe('the QR code of a printed ticket', () => {
  it('ESC/POS: encodes the signed code; the code is printed as text', async () => {
    const order = signedOrder();
    for (const paper of ['58mm', '80mm'] as const) {
      const slips = slipsOf(decodeEscPos(await encodeEscPos(printDocument(order, options), paper))).filter((slip) => slip.some((event) => event.kind === 'cut'));
      expect(slips).toHaveLength(2);
      for (const [index, ticket] of order.tickets.entries()) {
        const slip = slips[index] ?? [];
        expect(slip.filter((event) => event.kind === 'qr')).toEqual([{ kind: 'qr', data: ticket.signedCode }]);
        expect(textOf(slip)).toContain(ticket.code);
        expect(textOf(slip)).not.toContain(ticket.signedCode);
      }
    }
  });

  it('ESC/POS: a ticket without a signed code keeps its code in the QR', async () => {
    const slips = slipsOf(decodeEscPos(await encodeEscPos(printDocument(fixedOrder(), options), '80mm')));
    expect(slips[0]?.filter((event) => event.kind === 'qr')).toEqual([{ kind: 'qr', data: 'KX7Q-2M9D' }]);
  });

  it('HTML (the system printer\'s page): the QR is the signed code\'s', async () => {
    const order = signedOrder();
    const html = await renderHtml(printDocument(order, options), '80mm');
    for (const ticket of order.tickets) {
      const svg = await QRCode.toString(ticket.signedCode ?? '', { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      expect(html).toContain(svg);
      expect(html).toContain(`<p class="code">${ticket.code}</p>`);
    }
  });

  it('a 300-character signed code fits the line of 58 mm and 80 mm paper, quiet zone included', () => {
    const { modules, version } = QRCode.create(`K1.${'x'.repeat(297)}`, { errorCorrectionLevel: 'M' });
    expect(version).toBe(13);
    for (const paper of ['58mm', '80mm'] satisfies EscPosPaper[]) {
      expect(modules.size * QR_SIZE[paper]).toBeLessThanOrEqual(LINE_DOTS[paper]);
    }
    expect((modules.size + 8) * QR_SIZE['80mm']).toBeLessThanOrEqual(LINE_DOTS['80mm']);
  });
});
