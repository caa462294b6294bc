import { useEffect, useRef, useState } from 'react';
import type { GateTranslate } from '../../i18n/gate';
import { readQr } from './decode';
import { pageQrDetector } from './scanner';

/** Frames looked at per second: enough for a ticket held up to the phone, little work for a small device. */
const FRAMES_PER_SECOND = 4;
/** A code is one scan while it stays in view: it is sent again only after it was out of the picture this long. */
const SAME_CODE_MS = 3000;

/**
 * The camera, only when staff press `Camera` (getUserMedia needs a secure page: https, or localhost). Each
 * decoded QR goes to `onCode`, the same path as a typed code.
 */
export function Camera({ t, onCode, onToggled }: { t: GateTranslate; onCode(code: string): void; onToggled(): void }) {
  const [on, setOn] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const latest = useRef({ t, onCode });
  useEffect(() => {
    latest.current = { t, onCode };
  });

  useEffect(() => {
    if (!on) return;
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = { text: '', at: 0 };
    const fail = (message: string) => {
      setProblem(message);
      setStarting(false);
      setOn(false);
    };
    const start = async () => {
      if (!('mediaDevices' in navigator) || !window.isSecureContext) return fail(latest.current.t('gate.cameraNone'));
      setStarting(true);
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      const element = video.current;
      if (stopped || element === null) return;
      element.srcObject = stream;
      await element.play();
      const detector = await pageQrDetector();
      setStarting(false);
      const tick = async () => {
        if (stopped) return;
        try {
          const text = element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA ? await readQr(detector, element) : undefined;
          const now = Date.now();
          if (text !== undefined && !stopped && (text !== last.text || now - last.at > SAME_CODE_MS)) latest.current.onCode(text);
          if (text !== undefined) last = { text, at: now };
        } catch {
          // a frame that could not be read: the next one may
        }
        timer = setTimeout(() => void tick(), 1000 / FRAMES_PER_SECOND);
      };
      void tick();
    };
    start().catch((error: unknown) => {
      if (!stopped) fail(latest.current.t('gate.cameraFailed', { reason: error instanceof Error ? error.message : String(error) }));
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [on]);

  return (
    <div className="gate-camera">
      <button
        type="button"
        className="gate-toggle"
        aria-pressed={on}
        onClick={() => {
          setProblem(null);
          setOn(!on);
          onToggled();
        }}
      >
        {t('gate.camera')}
      </button>
      {starting && <p className="gate-camera-note">{t('gate.cameraStarting')}</p>}
      {problem !== null && <p className="gate-camera-note">{problem}</p>}
      {on && <video ref={video} className="gate-video" muted playsInline aria-label={t('gate.cameraPreview')} />}
    </div>
  );
}
