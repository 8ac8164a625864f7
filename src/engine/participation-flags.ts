// Spec §3: the flags of an exhibitor's participation (O2: the organiser sets them per exhibitor,
// and an event's defaults for new exhibitors). Account info, the organiser console and the
// import read this one list.

export const FEATURE_FLAGS = ['eventShow', 'leadgrabShow', 'digitalShow', 'hideAccountHome', 'downloadPdf', 'countryRequired'] as const;
export const SECTION_FLAGS = ['s01CompanyShow', 's01ContactShow', 's01DistributionShow', 's01GoalShow', 's02BrandNameShow', 'S01BoothDisplayName'] as const;
export const LANGUAGE_FLAGS = ['productSecondLanguage', 'profileSecondLanguage'] as const;
export const SUBMIT_ONCE_FLAGS = ['s01SubmitOnceOnly', 's02SubmitOnceOnly', 's03SubmitOnceOnly', 's04SubmitOnceOnly', 's05SubmitOnceOnly'] as const;
export const ALL_FLAGS = [...FEATURE_FLAGS, ...SECTION_FLAGS, ...LANGUAGE_FLAGS, ...SUBMIT_ONCE_FLAGS] as const;
export type ParticipationFlag = (typeof ALL_FLAGS)[number];

/** The flag groups as the console shows them. */
export const FLAG_GROUPS = { feature: FEATURE_FLAGS, section: SECTION_FLAGS, language: LANGUAGE_FLAGS, submitOnce: SUBMIT_ONCE_FLAGS } as const;

/** Quotas the member screens use (team users, contractor logins); form quotas come from the schemas' `quota` keyword. */
export const MEMBER_QUOTAS = ['teamUsers', 'contractors'] as const;
