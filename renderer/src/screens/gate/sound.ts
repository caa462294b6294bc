/**
 * The verdict's sound (WebAudio, no sound files): a high short tone when the person goes in, a low longer one
 * when not. Sounds only after a user gesture has let the page make sound (a scan's Enter or a tap does); a
 * browser without WebAudio stays silent.
 */
let context: AudioContext | undefined;

/** Beeps for a verdict. */
export function beep(ok: boolean): void {
  try {
    context ??= new AudioContext();
    const audio = context;
    if (audio.state === 'suspended') void audio.resume();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    const length = ok ? 0.12 : 0.6;
    oscillator.type = ok ? 'sine' : 'square';
    oscillator.frequency.value = ok ? 1760 : 220;
    gain.gain.setValueAtTime(0.25, audio.currentTime);
    gain.gain.setValueAtTime(0.25, audio.currentTime + length - 0.03);
    gain.gain.linearRampToValueAtTime(0, audio.currentTime + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + length);
  } catch {
    // no WebAudio here: the colour and the words stand
  }
}
