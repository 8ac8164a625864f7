import { MembersPanel } from '../components/MembersPanel';
import { TEAM_USERS } from '../components/types';

/** LD5: the exhibitor's team users (/digital-tools/team-user). */
export default function TeamUsersPage() {
  return <MembersPanel kind={TEAM_USERS} />;
}
