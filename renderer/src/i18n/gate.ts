import { useSession } from '../stores/session';
import { gateTranslator, type GateTranslate } from './gate-words';

export { gateTranslator, type GateKey, type GateTranslate } from './gate-words';

/** The gate's words in the chosen language. */
export function useGateT(): GateTranslate {
  return gateTranslator(useSession((state) => state.language));
}
