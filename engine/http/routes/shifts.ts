import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, replies } from '../../contract/common';
import { CashMovement, CashMovementBody, CloseShiftBody, OpenShiftBody, Shift, ShiftParams, ShiftReport } from '../../contract/shift';
import type { EngineContext } from '../../shared/context';
import { callerOf } from '../auth';
import { addCashMovement } from '../../shifts/cash-movement';
import { closeShift } from '../../shifts/close-shift';
import { openShift } from '../../shifts/open-shift';
import { currentShift, listShifts, readShift } from '../../shifts/read-shifts';
import { readShiftReport } from '../../shifts/report';
import { ListedShiftsPage, ShiftsListQuery } from '../../contract/hub-journal';
import { listTerminalShifts } from '../../sync/terminal-shifts';

const tags = ['shifts'];
// the box office's scopes (ROLE_SCOPES.boxOffice); the kiosk gets nothing of its drawer
const write = { scope: 'orders:write' } as const;
const read = { scope: 'orders:read' } as const;

/** Shifts and the cash drawer (contract §14): plumbing only, the rules are in engine/shifts. */
export const shiftRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.post(
    '/shifts',
    {
      config: write,
      schema: {
        tags,
        summary: "Open this engine's shift with its opening float (one open shift per engine: a second is 409 SHIFT_ALREADY_OPEN)",
        description: 'Money is in the base currency of the engine\'s location (its first location\'s first currency). Journalled as `shiftOpened`.',
        body: OpenShiftBody,
        response: replies(201, Shift),
      },
    },
    async (request, reply) => reply.code(201).send({ data: await openShift(ctx, request.body) }),
  );

  app.get(
    '/shifts',
    {
      config: read,
      schema: {
        tags,
        summary: "This engine's shifts, newest first; at a hub, `terminal=<keyId>` or `terminal=all`: its terminals' shifts",
        description: "With `terminal`: the shifts a terminal's journal told this hub (sync), newest first by opening time, each with `terminal` and, once closed, its Z report (`report`); `all`: every terminal's.",
        querystring: ShiftsListQuery,
        response: { 200: ListedShiftsPage, '4xx': ErrorBody },
      },
    },
    async (request) => {
      const { terminal, ...query } = request.query;
      if (terminal === undefined) return listShifts(ctx, query);
      return listTerminalShifts(ctx, callerOf(request), terminal, query.limit === undefined ? 50 : Number(query.limit), query.cursor);
    },
  );

  app.get(
    '/shifts/current',
    { config: read, schema: { tags, summary: 'The open shift (404 RESOURCE_NOT_FOUND when none is open)', response: replies(200, Shift) } },
    async () => ({ data: await currentShift(ctx) }),
  );

  app.get(
    '/shifts/:shiftId',
    { config: read, schema: { tags, summary: 'One shift, open or closed', params: ShiftParams, response: replies(200, Shift) } },
    async (request) => ({ data: await readShift(ctx, request.params.shiftId) }),
  );

  app.post(
    '/shifts/:shiftId/cash-movements',
    {
      config: write,
      schema: {
        tags,
        summary: 'A pay-in or pay-out of the drawer, with its reason',
        description: 'A pay-out above the cash expected in the drawer answers 409 INSUFFICIENT_CASH (`details.expected`); a closed shift 409 SHIFT_CLOSED. Journalled as `payIn` / `payOut`.',
        params: ShiftParams,
        body: CashMovementBody,
        response: replies(201, CashMovement),
      },
    },
    async (request, reply) => reply.code(201).send({ data: await addCashMovement(ctx, request.params.shiftId, request.body) }),
  );

  app.get(
    '/shifts/:shiftId/report',
    {
      config: read,
      schema: {
        tags,
        summary: "The shift's report: X (open, figures so far) or Z (closed, frozen at the close)",
        description: 'Money in the base currency; a sale in another currency counts at the amount it was paid in, listed per currency in `byMethod` '
          + '(and not in `cash`). `orders`, `byMethod` and `byEvent` count the sales made in the shift; `cancellations` the refunds made in it, '
          + 'whichever shift sold the order. cash.expected = openingFloat + sales − refunds + payIns − payOuts.',
        params: ShiftParams,
        response: replies(200, ShiftReport),
      },
    },
    async (request) => ({ data: await readShiftReport(ctx, request.params.shiftId) }),
  );

  app.post(
    '/shifts/:shiftId/close',
    {
      config: write,
      schema: {
        tags,
        summary: 'Close the shift with the counted cash: Z number, expected, counted, difference; its report is frozen',
        description: 'Closing again answers 409 SHIFT_CLOSED. Journalled as `shiftClosed`, the Z report inside.',
        params: ShiftParams,
        body: CloseShiftBody,
        response: replies(200, Shift),
      },
    },
    async (request) => ({ data: await closeShift(ctx, request.params.shiftId, request.body) }),
  );
};
