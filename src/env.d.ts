interface ImportMetaEnv {
  /** One id per `astro build` (astro.config.mjs): the stamp of the data files the build writes. */
  readonly BUILD_ID?: string;
}
