import { ERRORS, type ErrorId } from '../../engine/errors';

/** A coded outcome for the user. Thrown anywhere in a handler; the error plugin answers it. */
export class AppError extends Error {
  readonly definition: (typeof ERRORS)[ErrorId];
  constructor(
    readonly id: ErrorId,
    readonly data: unknown = null,
    readonly params: Record<string, string | number> = {},
  ) {
    super(id);
    this.definition = ERRORS[id];
  }
}
