import { useState, type ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';
import { ApiError } from '../../../lib/api-client';

/** The problems a refused request names (`data.problems`), or null when it names none. */
export function problemsOf<Problem>(error: unknown): Problem[] | null {
  if (!(error instanceof ApiError)) return null;
  const problems = (error.data as { problems?: Problem[] } | null)?.problems;
  return Array.isArray(problems) && problems.length > 0 ? problems : null;
}

/**
 * A form's sending: the page's own check first (nothing is sent while it finds problems), then the
 * request; problems the server names show at their fields like the page's own, any other failure
 * as one message, and the button waits while the request runs.
 */
export function useSending<Problem>() {
  const [problems, setProblems] = useState<Problem[]>([]);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async (found: Problem[], request: () => Promise<void>) => {
    setProblems(found);
    setFailure('');
    if (found.length > 0) return;
    setBusy(true);
    try {
      await request();
    } catch (error) {
      const fromServer = problemsOf<Problem>(error);
      if (fromServer) setProblems(fromServer);
      else setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return { problems, failure, busy, send };
}

/** A titled card that is a form: its submit button or Enter sends it; the page checks the fields itself, in the user's language. */
export function FormCard({ title, onSubmit, children, actions }: { title: string; onSubmit: () => void; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card
      variant="outlined"
      component="form"
      aria-label={title}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
      {actions}
    </Card>
  );
}
