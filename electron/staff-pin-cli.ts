import { hashPin } from '../engine/staff/pin';

/** `npm run staff-pin -- 1234`: prints the settings line for a kiosk's staff-exit PIN. */
const pin = process.argv[2] ?? '';
try {
  console.log(JSON.stringify({ staffPinHash: hashPin(pin) }));
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
