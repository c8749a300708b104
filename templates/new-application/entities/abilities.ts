import { Abilities, type AbilityFactory, type AppAbility, defineAbility, type Principal } from 'resource-service';

/**
 * What each caller may do. Conditions are Prisma `where` objects: they scope every query the
 * generated repositories run. A caller without a rule sees nothing (fail closed).
 */
@Abilities()
export class AppAbilities implements AbilityFactory {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => {
      // Every signed-in user reads and writes their own notes, whatever their role.
      can(['read', 'create'], 'Note', { ownerId: principal.sub });
    });
  }
}
