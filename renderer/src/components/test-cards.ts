import type { MessageKey } from '../i18n/en';

/**
 * The simulated provider's test cards, named by what they do (contract §9): the kiosk shows only the
 * outcome, the box office the outcome and the token. A token this UI does not know is "Test card N".
 */
const OUTCOMES: Readonly<Record<string, MessageKey>> = {
  tok_visa: 'testCard.approved',
  tok_3ds: 'testCard.threeDS',
  tok_declined: 'testCard.declined',
  tok_risk: 'testCard.risk',
  tok_provider_down: 'testCard.providerDown',
};

export function outcomeKey(token: string): MessageKey | undefined {
  return Object.hasOwn(OUTCOMES, token) ? OUTCOMES[token] : undefined;
}
