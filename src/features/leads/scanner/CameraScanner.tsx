// Placeholder so the scanner page compiles on its own branch: the camera branch (scanner-cam) replaces this file.
export default function CameraScanner(_props: { onCode: (code: string, format: string) => void; paused?: boolean }) {
  return null;
}
