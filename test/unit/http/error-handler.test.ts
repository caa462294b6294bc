import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../../engine/domain/errors';
import { jsonPath } from '../../../engine/http/error-handler';
import { messageFor, pickLanguage } from '../../../engine/http/i18n';

describe('jsonPath', () => {
  it.each([
    ['/items/2/quantity', 'items[2].quantity'],
    ['/items/0', 'items[0]'],
    ['/currency', 'currency'],
    ['', ''],
    ['/events/1/occurrences/0/areas/3/inventoryItems/10/capacity', 'events[1].occurrences[0].areas[3].inventoryItems[10].capacity'],
  ])('%j → %j', (pointer, path) => expect(jsonPath(pointer)).toBe(path));
});

describe('messages', () => {
  it('pick the language from Accept-Language with q-values, English by default', () => {
    expect(pickLanguage(undefined)).toBe('en');
    expect(pickLanguage('de-DE,de;q=0.9')).toBe('de');
    expect(pickLanguage('fr;q=0.9, de;q=0.8')).toBe('fr');
    expect(pickLanguage('ja')).toBe('en');
  });

  it('exist for every code in every language and fill their placeholders', () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as (keyof typeof ERROR_CATALOGUE)[]) {
      for (const language of ['en', 'de', 'fr'] as const) {
        expect(messageFor(code, language, {}).length).toBeGreaterThan(5);
      }
    }
    expect(messageFor('INVENTORY_EXHAUSTED', 'en', { availableQuantity: 2, requestedQuantity: 5 })).toBe('Only 2 available; 5 requested.');
  });
});
