/** How channel kinds read on the settings pages. */
export const KIND_LABELS = { public: "Public", private: "Private", dm: "Direct message" } as const;
