import type { Core } from '@strapi/strapi';

/**
 * A factory of closures over one Strapi instance, built once for that instance. The repositories
 * and commands mostly keep no state of their own (they read the database, the settings and the
 * services when called), so building them again for every call only made garbage, and ran every
 * one of their modules (the trash's commands, the sitemap's queries) on a request that needs none
 * of them. The few that keep what they learned do so per instance, here: PostgreSQL search's
 * schedule of its frequent-word counts, the published total read within the last second.
 */
export function oncePerStrapi<Built>(build: (strapi: Core.Strapi) => Built): (strapi: Core.Strapi) => Built {
  const builtFor = new WeakMap<Core.Strapi, Built>();
  return (strapi) => {
    const known = builtFor.get(strapi);
    if (known !== undefined) return known;
    const built = build(strapi);
    builtFor.set(strapi, built);
    return built;
  };
}
