// What a form's rules depend on beyond its data: the exhibitor's flags (sections shown, second
// language) and quotas. The browser and the server build it from the same account info.

export interface FormContext {
  /** Participation flags of spec §3 (s01CompanyShow, profileSecondLanguage, …). */
  flags: Record<string, boolean>;
  /** Quotas by kind, e.g. { badges: 5, contractorBadges: 10 }. */
  quotas: Record<string, number>;
  /**
   * Server only (V3, P5): the uploads this submission may reference — the exhibitor's own — as the
   * server recorded them. With it, a file reference must name one of them with the same purpose
   * and metadata, so a hand-made or borrowed reference cannot bypass the file rules. The browser
   * leaves it out: it only holds references the server gave it.
   */
  uploads?: ReadonlyMap<string, RecordedUpload>;
}

export interface RecordedUpload {
  purpose: string;
  size: number;
  type: string;
  dpi: number | null;
}
