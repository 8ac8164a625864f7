import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { Alert, Box, IconButton, Stack, Tooltip } from '@mui/material';
import CameraswitchIcon from '@mui/icons-material/Cameraswitch';
import FlashlightOffIcon from '@mui/icons-material/FlashlightOff';
import FlashlightOnIcon from '@mui/icons-material/FlashlightOn';
import { useTranslation } from 'react-i18next';
import { codeDetector, type CodeDetector } from './detector';
import { unlockScanSound } from './feedback';
import { registerScannerServiceWorker } from './offline';
import { createRepeatGuard } from './repeat-guard';

// LD1: the camera half of the scanner. It shows the rear camera with a frame to aim at, reads the
// badge codes in that frame and calls `onCode` once per badge shown (see repeat-guard.ts). The
// reading runs on a cropped, downscaled copy of the frame, at most every DECODE_INTERVAL_MS and
// never two at once, so a slow phone skips frames instead of queueing work.

export interface CameraScannerProps {
  onCode: (code: string, format: string) => void;
  paused?: boolean;
}

/** Least time between two reads (ms): ~8 reads a second is quick to react and leaves the phone cool. */
const DECODE_INTERVAL_MS = 120;
/** The part of the picture that is read (and that the aim frame shows), as a share of each side. */
const AIM_SHARE = { width: 0.8, height: 0.8 };
/** The longest side of the copy handed to the reader: enough for a badge held at arm's length. */
const DECODE_MAX_SIDE = 800;

type CameraState = 'starting' | 'live' | 'denied' | 'absent' | 'busy' | 'insecure' | 'readerFailed' | 'failed';

interface TrackExtras {
  torch?: boolean;
  focusMode?: string[];
  pointsOfInterest?: unknown;
}

function stateOfError(error: unknown): CameraState {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'absent';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'busy';
  return 'failed';
}

function stopStream(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

export default function CameraScanner({ onCode, paused = false }: CameraScannerProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [state, setState] = useState<CameraState>('starting');
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  /** The chosen camera; undefined = the rear one, as the browser picks it. */
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined);
  const [torchAvailable, setTorchAvailable] = useState(false);
  const [torchOn, setTorchOn] = useState(false);
  /** Bumped to open the camera again (the page came back into view). */
  const [generation, setGeneration] = useState(0);
  const [focusPoint, setFocusPoint] = useState<{ x: number; y: number } | null>(null);

  // The latest props, read by the reading loop without restarting it.
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    registerScannerServiceWorker();
  }, []);

  // Open the camera (again when the chosen camera changes or the page returns into view).
  useEffect(() => {
    let cancelled = false;
    const media = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
    if (!media?.getUserMedia) {
      // Browsers offer the camera only on https (or localhost).
      setState(typeof window !== 'undefined' && window.isSecureContext === false ? 'insecure' : 'absent');
      return;
    }
    setState('starting');
    const video: MediaTrackConstraints = deviceId ? { deviceId: { exact: deviceId } } : { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } };
    media
      .getUserMedia({ video, audio: false })
      .then(async (stream) => {
        if (cancelled) {
          stopStream(stream);
          return;
        }
        streamRef.current = stream;
        const element = videoRef.current;
        if (element) {
          element.srcObject = stream;
          await element.play().catch(() => undefined);
        }
        const track = stream.getVideoTracks()[0];
        const capabilities = (track?.getCapabilities?.() ?? {}) as MediaTrackCapabilities & TrackExtras;
        setTorchAvailable(capabilities.torch === true);
        setTorchOn(false);
        if (track && capabilities.focusMode?.includes('continuous')) {
          void track.applyConstraints({ advanced: [{ focusMode: 'continuous' } as MediaTrackConstraintSet] }).catch(() => undefined);
        }
        // Labels and the list of cameras are known only once the camera is allowed.
        const devices = await media.enumerateDevices().catch(() => []);
        if (!cancelled) {
          setCameras(devices.filter((device) => device.kind === 'videoinput'));
          setState('live');
        }
      })
      .catch((error: unknown) => {
        if (!cancelled) setState(stateOfError(error));
      });
    return () => {
      cancelled = true;
      stopStream(streamRef.current);
      streamRef.current = null;
      if (videoRef.current) videoRef.current.srcObject = null;
    };
  }, [deviceId, generation]);

  // iOS (a home-screen app above all) leaves the camera black after the phone locked or the app
  // was in the background: give the camera up when hidden and open it afresh when shown.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        stopStream(streamRef.current);
        streamRef.current = null;
      } else {
        setGeneration((value) => value + 1);
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  // The reading loop, while the camera is live.
  useEffect(() => {
    if (state !== 'live') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const guard = createRepeatGuard();
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    let detector: CodeDetector | null = null;

    const readOnce = async () => {
      const video = videoRef.current;
      if (!video || !context || !detector || pausedRef.current || video.readyState < 2 || video.videoWidth === 0) {
        if (pausedRef.current) guard.reset();
        return;
      }
      const cropWidth = Math.round(video.videoWidth * AIM_SHARE.width);
      const cropHeight = Math.round(video.videoHeight * AIM_SHARE.height);
      const scale = Math.min(1, DECODE_MAX_SIDE / Math.max(cropWidth, cropHeight));
      const width = Math.round(cropWidth * scale);
      const height = Math.round(cropHeight * scale);
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      const started = performance.now();
      context.drawImage(video, (video.videoWidth - cropWidth) / 2, (video.videoHeight - cropHeight) / 2, cropWidth, cropHeight, 0, 0, width, height);
      const found = await detector.detect(canvas);
      try {
        // Seen by the benchmark's PerformanceObserver (npm run bench -- scanner): the cost of one
        // frame, drawn and read. Cleared at once: a show day's frames must not pile up in memory.
        performance.measure('scanner:read', { start: started, detail: { kind: detector.kind, width: video.videoWidth, height: video.videoHeight } });
        performance.clearMeasures('scanner:read');
      } catch {
        // Measures are for the benchmark only.
      }
      if (stopped || pausedRef.current) return;
      const formats = new Map(found.map((code) => [code.rawValue, code.format]));
      for (const code of guard.accept(
        [...formats.keys()].filter((value) => value.trim() !== ''),
        performance.now(),
      )) {
        try {
          performance.mark('scanner:code', { detail: code });
          performance.clearMarks('scanner:code');
        } catch {
          // Marks are for the benchmark only.
        }
        onCodeRef.current(code, formats.get(code) ?? 'unknown');
      }
    };

    const loop = async () => {
      const started = performance.now();
      try {
        await readOnce();
      } catch {
        // A frame that cannot be read (the camera just closed, a decoder hiccup) is skipped.
      }
      if (!stopped) timer = setTimeout(loop, Math.max(0, DECODE_INTERVAL_MS - (performance.now() - started)));
    };

    codeDetector().then(
      (created) => {
        if (stopped) return;
        detector = created;
        void loop();
      },
      () => {
        if (!stopped) setState('readerFailed');
      },
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [state]);

  const switchCamera = useCallback(() => {
    if (cameras.length < 2) return;
    const currentId = streamRef.current?.getVideoTracks()[0]?.getSettings().deviceId ?? deviceId;
    const index = cameras.findIndex((camera) => camera.deviceId === currentId);
    setDeviceId(cameras[(index + 1) % cameras.length]!.deviceId);
  }, [cameras, deviceId]);

  const toggleTorch = useCallback(() => {
    const track = streamRef.current?.getVideoTracks()[0];
    if (!track) return;
    const next = !torchOn;
    track
      .applyConstraints({ advanced: [{ torch: next } as MediaTrackConstraintSet] })
      .then(() => setTorchOn(next))
      .catch(() => setTorchAvailable(false));
  }, [torchOn]);

  // Tap to focus where the camera takes a point of interest (Chrome on Android); elsewhere a tap
  // asks for one focus pass, and on phones that focus on their own it does nothing.
  const focusAt = useCallback((event: PointerEvent<HTMLElement>) => {
    unlockScanSound();
    const track = streamRef.current?.getVideoTracks()[0];
    if (!track) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width;
    const y = (event.clientY - box.top) / box.height;
    const capabilities = (track.getCapabilities?.() ?? {}) as MediaTrackCapabilities & TrackExtras;
    const modes = capabilities.focusMode ?? [];
    if (modes.length === 0) return;
    setFocusPoint({ x, y });
    const constraint: Record<string, unknown> = { focusMode: modes.includes('single-shot') ? 'single-shot' : modes[0] };
    if ('pointsOfInterest' in capabilities) constraint.pointsOfInterest = [{ x, y }];
    void track
      .applyConstraints({ advanced: [constraint as MediaTrackConstraintSet] })
      .catch(() => undefined)
      .finally(() => setTimeout(() => setFocusPoint(null), 800));
  }, []);

  const problem = state === 'starting' || state === 'live' ? null : state;

  return (
    <Stack spacing={1}>
      {problem ? (
        <Alert severity={problem === 'readerFailed' || problem === 'busy' || problem === 'failed' ? 'warning' : 'info'} role="alert">
          {t(`scannerCamera.problem.${problem}`)}
        </Alert>
      ) : null}
      <Box
        role="region"
        aria-label={t('scannerCamera.view')}
        onPointerDown={focusAt}
        sx={{
          position: 'relative',
          display: problem ? 'none' : 'block',
          width: '100%',
          maxWidth: 480,
          mx: 'auto',
          aspectRatio: '4 / 3',
          bgcolor: 'common.black',
          borderRadius: 2,
          overflow: 'hidden',
          touchAction: 'manipulation',
        }}
      >
        <Box component="video" ref={videoRef} muted playsInline autoPlay aria-hidden sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} />
        {/* The aim frame: the part of the picture that is read. */}
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            inset: `${((1 - AIM_SHARE.height) / 2) * 100}% ${((1 - AIM_SHARE.width) / 2) * 100}%`,
            border: '3px solid',
            borderColor: paused ? 'grey.500' : 'secondary.light',
            borderRadius: 2,
            boxShadow: '0 0 0 100vmax rgba(0, 0, 0, 0.35)',
            pointerEvents: 'none',
          }}
        />
        {focusPoint ? (
          <Box
            aria-hidden
            sx={{
              position: 'absolute',
              left: `calc(${focusPoint.x * 100}% - 24px)`,
              top: `calc(${focusPoint.y * 100}% - 24px)`,
              width: 48,
              height: 48,
              border: '2px solid white',
              borderRadius: '50%',
              pointerEvents: 'none',
            }}
          />
        ) : null}
        <Stack direction="row" spacing={1} sx={{ position: 'absolute', right: 8, bottom: 8 }}>
          {torchAvailable ? (
            <Tooltip title={t(torchOn ? 'scannerCamera.torchOff' : 'scannerCamera.torchOn')}>
              <IconButton
                aria-label={t(torchOn ? 'scannerCamera.torchOff' : 'scannerCamera.torchOn')}
                aria-pressed={torchOn}
                onPointerDown={(event) => event.stopPropagation()}
                onClick={toggleTorch}
                sx={{ bgcolor: 'rgba(0,0,0,0.55)', color: 'common.white', '&:hover': { bgcolor: 'rgba(0,0,0,0.7)' } }}
              >
                {torchOn ? <FlashlightOffIcon /> : <FlashlightOnIcon />}
              </IconButton>
            </Tooltip>
          ) : null}
          {cameras.length > 1 ? (
            <Tooltip title={t('scannerCamera.switchCamera')}>
              <IconButton
                aria-label={t('scannerCamera.switchCamera')}
                onPointerDown={(event) => event.stopPropagation()}
                onClick={switchCamera}
                sx={{ bgcolor: 'rgba(0,0,0,0.55)', color: 'common.white', '&:hover': { bgcolor: 'rgba(0,0,0,0.7)' } }}
              >
                <CameraswitchIcon />
              </IconButton>
            </Tooltip>
          ) : null}
        </Stack>
      </Box>
      {state === 'live' ? (
        <Box component="p" sx={{ m: 0, textAlign: 'center', color: 'text.secondary', typography: 'body2' }}>
          {t(paused ? 'scannerCamera.paused' : 'scannerCamera.aim')}
        </Box>
      ) : null}
    </Stack>
  );
}
