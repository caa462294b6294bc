import { describe, expect, it } from 'vitest';
import { gateTranslator } from '../../../renderer/src/i18n/gate-words';
import { gateShows } from '../../../renderer/src/screens/gate/shows';
import { verdictOf, type Outcome } from '../../../renderer/src/screens/gate/verdict';

/** The gate's words for each answer of POST /checkins (contract §9 "Gate", §15), and the order of its shows. */

const clock = { when: (iso: string) => `when(${iso})`, time: (iso: string) => `time(${iso})` };
const refused = (code: string, details: Record<string, unknown> = {}): Outcome => ({ kind: 'refused', code, details });
const text = (outcome: Outcome, language: 'en' | 'de' | 'fr' = 'en') => {
  const verdict = verdictOf(outcome, gateTranslator(language), clock);
  return { ok: verdict.ok, text: [verdict.word, verdict.reason].filter((part) => part !== '').join(' '), ticket: verdict.ticket };
};

describe('the gate verdict', () => {
  const ticket = { code: '7H2KQ9XW4M8PB3RT6VYC', eventName: 'Midnight Brass', occurrenceId: 'brass-1', startsAt: '2027-03-12T19:30:00Z', area: 'Stalls' };

  it('admitted (with the show, area and seat) and left are the green ones', () => {
    expect(text({ kind: 'answer', answer: { result: 'admitted', ticket: { ...ticket, seat: 'A-12' }, at: '2027-03-12T19:00:00Z', gate: 'B' } })).toEqual({
      ok: true,
      text: 'Admitted',
      ticket: 'Midnight Brass · when(2027-03-12T19:30:00Z) · Stalls, seat A-12',
    });
    expect(text({ kind: 'answer', answer: { result: 'left', ticket, at: '2027-03-12T19:00:00Z', gate: 'B' } }).text).toMatch(/^Left/);
  });

  it('says each refusal in words, starting with the word of contract §9', () => {
    expect(text(refused('ALREADY_CHECKED_IN', { at: '2027-03-12T18:42:00Z', gate: 'B' }))).toMatchObject({ ok: false, text: 'Already inside since time(2027-03-12T18:42:00Z) at gate B' });
    expect(text(refused('TICKET_WRONG_OCCURRENCE', { occurrenceId: 'brass-2', startsAt: '2027-03-13T19:30:00Z' })).text).toBe('Wrong show — this ticket is for when(2027-03-13T19:30:00Z)');
    expect(text(refused('TICKET_CANCELLED')).text).toBe('Cancelled');
    expect(text(refused('TICKET_INVALID')).text).toBe('Not valid');
    expect(text(refused('TICKET_NOT_FOUND')).text).toBe('Not valid');
    expect(text(refused('NOT_CHECKED_IN')).text).toMatch(/^Not inside/);
  });

  it('never lets in on no answer: a network failure or a 5xx asks to check again', () => {
    for (const code of ['NETWORK_UNREACHABLE', 'INTERNAL_ERROR', 'UNEXPECTED']) expect(text(refused(code))).toMatchObject({ ok: false, text: 'No answer — check the ticket again' });
  });

  it('speaks German and French', () => {
    expect(text(refused('ALREADY_CHECKED_IN', { at: 'x', gate: 'B' }), 'de').text).toBe('Bereits drinnen seit time(x) an Eingang B');
    expect(text(refused('TICKET_NOT_FOUND'), 'fr').text).toBe('Non valable');
  });
});

describe('the gate shows', () => {
  it("lists today's shows first (on the venue's clock), then those to come, then those past; no gift cards", () => {
    const occurrence = (id: string, startsAt: string) => ({ id, startsAt, onSale: true });
    const events = [
      { id: 'e1', name: 'Concert', locationId: 'v', kind: 'ticket' as const, occurrences: [occurrence('past', '2027-03-01T19:00:00Z'), occurrence('later', '2027-03-20T19:00:00Z'), occurrence('tonight', '2027-03-12T22:30:00Z')] },
      { id: 'e2', name: 'Play', locationId: 'v', kind: 'ticket' as const, occurrences: [occurrence('matinee', '2027-03-12T13:00:00Z'), occurrence('older', '2027-02-01T19:00:00Z')] },
      { id: 'g', name: 'Gift card', locationId: 'v', kind: 'giftCard' as const, occurrences: [occurrence('gift', '2026-01-01T00:00:00Z')] },
    ];
    const locations = [{ id: 'v', name: 'Hall', availableCurrencies: ['EUR'], timeZone: 'Europe/Berlin' }];
    // 23:30 in Berlin on 12 March: the matinee (14:00) and tonight's show (23:30) are today's
    const shows = gateShows(events, locations, new Date('2027-03-12T22:30:00Z'));
    expect(shows.map((show) => show.occurrenceId)).toEqual(['matinee', 'tonight', 'later', 'past', 'older']);
    expect(shows[0]).toMatchObject({ eventName: 'Play', timeZone: 'Europe/Berlin' });
  });
});
