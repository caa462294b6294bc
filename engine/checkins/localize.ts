import type { CheckinResult } from '../contract/checkin';
import type { NameLanguage } from '../domain/names';
import type { Storage } from '../shared/context';
import { nameKey } from '../store/port-types';
import type { Decided } from './check-in';

/**
 * A check-in's answer in `language` (issue #14's way): the event's and the area's names where the catalog
 * translates them. English is what the catalog stores first, so an English answer reads no names.
 */
export async function localizeCheckin(ctx: Storage, decided: Decided, language: NameLanguage): Promise<CheckinResult> {
  const { result, eventId, areaId } = decided;
  if (language === 'en') return result;
  const occurrenceId = result.ticket.occurrenceId;
  const keys: (readonly [string, string, string])[] = [['event', '', eventId]];
  if (areaId !== null) keys.push(['area', occurrenceId, areaId]);
  const table = await ctx.store.repos.catalogNames.namesOf(keys);
  const eventName = table.get(nameKey('event', '', eventId))?.[language] ?? result.ticket.eventName;
  const area = areaId === null ? result.ticket.area : table.get(nameKey('area', occurrenceId, areaId))?.[language] ?? result.ticket.area;
  return { ...result, ticket: { ...result.ticket, eventName, area } };
}
