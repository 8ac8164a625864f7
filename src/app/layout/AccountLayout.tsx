import { SignedInFrame } from './MainLayout';

/** The second layout group of spec §2 (/announcements, /search, /my-account): no left menu. */
export function AccountLayout() {
  return <SignedInFrame withMenu={false} />;
}
