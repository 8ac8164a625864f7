import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../lib/api';
import { exchangeLinkCode, inspectLinkCode } from '../lib/link-code';
import type { UserInfo } from '../lib/session';
import { showToast } from '../lib/toast';
import '../components/plain/plain.css';

// S3: someone signed in opens a sign-in link of another account. Nothing changes
// until they choose: switching trades the link code for a session of that account; staying
// leaves the code unused (it expires within minutes). A native <dialog>, so it needs no MUI and
// shows on public pages too.

type Prompt = { current: string; other: string };

export function LinkSwitchPrompt({ code }: { code: string }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      let owner: Awaited<ReturnType<typeof inspectLinkCode>>;
      try {
        owner = await inspectLinkCode(code);
      } catch {
        if (live) showToast('error', t('errors.linkCodeInvalid'));
        return;
      }
      let current: UserInfo | null = null;
      try {
        current = await typedApi.get('/user/info', { silent: true });
      } catch {
        // The stored session is no longer valid: nobody is signed in, so the link just signs in.
      }
      if (!live) return;
      if (!current) return void switchAccount();
      // Already signed in as that account: nothing to switch, the code stays unused.
      if (current.account.toLowerCase() === owner.account.toLowerCase()) return;
      setPrompt({ current: current.account, other: owner.account });
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per link code
  }, [code]);

  useEffect(() => {
    if (prompt && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [prompt]);

  async function switchAccount() {
    setBusy(true);
    try {
      await exchangeLinkCode(code);
      // A fresh start as the other account: nothing loaded for the previous one survives.
      window.location.reload();
    } catch {
      setBusy(false);
      setPrompt(null);
      dialog.current?.close();
      showToast('error', t('errors.linkCodeInvalid'));
    }
  }

  function stay() {
    dialog.current?.close();
    setPrompt(null);
  }

  if (!prompt) return null;
  return (
    <dialog ref={dialog} className="plain-dialog" aria-labelledby="link-switch-title" aria-describedby="link-switch-text" onCancel={stay}>
      <h2 id="link-switch-title">{t('auth.linkSwitchTitle')}</h2>
      <p id="link-switch-text">{t('auth.linkSwitchText', prompt)}</p>
      <div className="plain-dialog-actions">
        <button type="button" className="plain-button plain-button-secondary" onClick={stay} disabled={busy} autoFocus>
          {t('auth.linkSwitchStay', prompt)}
        </button>
        <button type="button" className="plain-button" onClick={() => void switchAccount()} disabled={busy}>
          {t('auth.linkSwitchConfirm', prompt)}
        </button>
      </div>
    </dialog>
  );
}
