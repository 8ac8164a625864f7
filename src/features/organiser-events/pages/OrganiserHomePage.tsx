export default function OrganiserHomePage() {
  return null;
}
