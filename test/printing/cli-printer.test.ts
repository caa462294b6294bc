import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from '../../engine/cli/args';
import { parsePrinter } from '../../engine/printing/printers';

/** `serve --printer URL` (contract §12): repeatable, checked before the engine starts. */
describe('--printer', () => {
  it('is repeatable and keeps the order (the first is the default printer); none by default', () => {
    expect(parseServeArgs([]).printers).toEqual([]);
    expect(parseServeArgs(['--printer', 'tcp://192.168.1.50:9100', '--printer', 'tcp://bar-printer.venue.lan?paper=58']).printers).toEqual([
      'tcp://192.168.1.50:9100',
      'tcp://bar-printer.venue.lan?paper=58',
    ]);
  });

  it.each([
    ['lpt1', /tcp:\/\/HOST:PORT or system:NAME/],
    ['tcp://', /not tcp:\/\/HOST:PORT/],
    ['tcp://printer:9100/path', /not tcp:\/\/HOST:PORT/],
    ['tcp://printer:9100?paper=112', /paper must be one of 58mm, 80mm/],
    ['tcp://printer:9100?speed=fast', /unknown option "speed"/],
    ['system:Front Desk', /desktop app only/],
  ])('refuses %s with a one-line usage error', (url, message) => {
    expect(() => parseServeArgs(['--printer', url])).toThrow(UsageError);
    expect(() => parseServeArgs(['--printer', url])).toThrow(message);
  });

  it('refuses the same printer twice', () => {
    expect(() => parseServeArgs(['--printer', 'tcp://a:9100', '--printer', 'tcp://a:9100'])).toThrow(/twice/);
  });

  it('reads host, port (9100 by default) and paper', () => {
    expect(parsePrinter('tcp://10.0.0.7')).toEqual({ id: 'tcp://10.0.0.7', kind: 'escpos', host: '10.0.0.7', port: 9100, paper: '80mm' });
    expect(parsePrinter('tcp://[::1]:9101?paper=58')).toMatchObject({ host: '::1', port: 9101, paper: '58mm' });
    expect(parsePrinter('system:Office%20Laser?paper=a4')).toEqual({ id: 'system:Office%20Laser?paper=a4', kind: 'system', name: 'Office Laser', paper: 'a4' });
  });
});
