import { ERRORS, type ErrorId } from '../../engine/errors';

/**
 * A coded outcome for the user. Thrown anywhere in a handler; the error plugin answers it.
 * `messageKey` replaces the table's message when the outcome has a more precise one (a rejected
 * file answers its first problem, e.g. validation.file.empty); `params` fill that message.
 */
export class AppError extends Error {
  readonly definition: (typeof ERRORS)[ErrorId];
  constructor(
    readonly id: ErrorId,
    readonly data: unknown = null,
    readonly params: Record<string, string | number> = {},
    readonly messageKey?: string,
  ) {
    super(id);
    this.definition = ERRORS[id];
  }
}
