// The French message table: every key of the English table (checked by tests), same placeholders.
// Chosen with `locale: 'fr'` in the config, or `resolveMessages('fr')` for the components.

import type { MessageId } from './en.js';

/**
 * Every French text, keyed by message id.
 *
 * @example fr['signin.title'] // 'Connexion'
 */
export const fr: Readonly<Record<MessageId, string>> = {
	'signin.submit': 'Se connecter',
	'signout.button': 'Se déconnecter',
	'signin.title': 'Connexion',
	'signin.with': 'Se connecter avec {provider}',
	'signin.or': 'ou',
	'signin.email.label': 'Adresse e-mail',
	'signin.email.placeholder': 'vous@exemple.fr',
	'signin.passkey.noscript':
		'Les clés d’accès nécessitent JavaScript. Activez-le dans votre navigateur ou choisissez un autre moyen de connexion.',
	'signin.passkey.unsupported':
		'Ce navigateur ne peut pas utiliser de clé d’accès ici. Mettez-le à jour ou choisissez un autre moyen de connexion.',
	'signin.error.OAuthSignin': 'Impossible de lancer la connexion avec ce fournisseur. Veuillez réessayer.',
	'signin.error.OAuthCallbackError':
		'Le fournisseur n’a pas terminé la connexion. Réessayez ou choisissez un autre moyen de connexion.',
	'signin.error.InvalidCheck': 'La connexion n’a pas pu être vérifiée. Veuillez recommencer.',
	'signin.error.CallbackRouteError': 'Un problème est survenu à la fin de la connexion. Veuillez réessayer.',
	'signin.error.OAuthAccountNotLinked':
		'Pour confirmer votre identité, connectez-vous avec le compte que vous avez utilisé la première fois.',
	'signin.error.EmailSignin':
		'Nous n’avons pas pu envoyer de lien de connexion. Vérifiez que vous avez saisi une seule adresse e-mail valide, puis réessayez.',
	'signin.error.CredentialsSignin': 'La connexion a échoué. Vérifiez que les informations saisies sont correctes.',
	'signin.error.MissingCSRF': 'Le formulaire de connexion a expiré. Veuillez réessayer.',
	'signin.error.SessionRequired': 'Veuillez vous connecter pour continuer.',
	'signin.error.JWTSessionError': 'Votre session n’a pas pu être lue. Veuillez vous reconnecter.',
	'signin.error.AccessDenied': 'Vous n’êtes pas autorisé à vous connecter avec ce compte.',
	'signin.error.Verification': 'Le lien de connexion n’est plus valide. Demandez-en un nouveau.',
	'signin.error.RateLimited': 'Trop de tentatives. Patientez quelques minutes, puis réessayez.',
	'signin.error.InvalidProvider': 'Ce moyen de connexion n’est pas disponible. Veuillez en choisir un autre.',
	'signin.error.WebAuthnVerificationError': 'Votre clé d’accès n’a pas pu être vérifiée. Réessayez ou choisissez un autre moyen de connexion.',
	'signin.error.Default': 'Connexion impossible. Veuillez réessayer.',
	'signout.title': 'Déconnexion',
	'signout.confirm': 'Voulez-vous vraiment vous déconnecter ?',
	'verify.title': 'Consultez vos e-mails',
	'verify.body': 'Un lien de connexion a été envoyé à votre adresse e-mail.',
	'verify.expires': 'Le lien expire dans {duration} et ne fonctionne qu’une seule fois.',
	'verify.spam': 'Pas d’e-mail ? Regardez dans vos courriers indésirables, ou revenez en arrière pour demander un nouveau lien.',
	'confirm.title': 'Confirmer la connexion',
	'confirm.body': 'Se connecter à {host} en tant que {email} ?',
	'confirm.button': 'Se connecter',
	'confirm.hint':
		'Si vous n’avez pas demandé ce lien, fermez cette page : rien ne se passe tant que vous n’appuyez pas sur le bouton.',
	'email.subject': 'Connexion à {host}',
	'email.title': 'Connexion à {host}',
	'email.intro': 'Appuyez sur le bouton ci-dessous pour vous connecter à {host}.',
	'email.textIntro': 'Ouvrez ce lien pour vous connecter à {host} :',
	'email.button': 'Se connecter',
	'email.link': 'Ou ouvrez ce lien dans votre navigateur :',
	'email.expires': 'Le lien expire dans {duration} et ne fonctionne qu’une seule fois.',
	'email.ignore':
		'Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail : personne ne peut se connecter sans ce lien.',
	'error.code': 'Code d’erreur : {code}',
	'error.Configuration.title': 'La configuration du serveur pose problème',
	'error.Configuration.body': 'Consultez les journaux du serveur pour en savoir plus.',
	'error.AccessDenied.title': 'Accès refusé',
	'error.AccessDenied.body': 'Vous n’êtes pas autorisé à vous connecter.',
	'error.Verification.title': 'Connexion impossible',
	'error.Verification.body':
		'Ce lien de connexion ne peut pas être utilisé. Il a peut-être déjà servi, il a peut-être expiré, ou il concerne une autre adresse e-mail. Demandez un nouveau lien pour vous connecter.',
	'error.UntrustedHost.title': 'Ce site n’est pas reconnu',
	'error.UntrustedHost.body':
		'Le serveur n’accepte pas les requêtes pour ce nom d’hôte. Le responsable du site doit l’autoriser dans la configuration.',
	'error.MissingAdapterMethod.title': 'La configuration du serveur pose problème',
	'error.MissingAdapterMethod.body':
		'L’adaptateur de base de données ne fournit pas une méthode nécessaire à cette connexion. Consultez les journaux du serveur pour en savoir plus.',
	'error.MissingCSRF.title': 'Le formulaire a expiré',
	'error.MissingCSRF.body': 'Le jeton de sécurité du formulaire manquait ou n’était plus à jour. Veuillez réessayer.',
	'error.InvalidProvider.title': 'Moyen de connexion inconnu',
	'error.InvalidProvider.body': 'Ce moyen de connexion n’existe pas ou ne peut pas être utilisé ici.',
	'error.UnknownAction.title': 'Page introuvable',
	'error.UnknownAction.body': 'Il n’y a rien à cette adresse.',
	'error.InvalidCallbackUrl.title': 'Connexion impossible',
	'error.InvalidCallbackUrl.body': 'L’adresse de retour après la connexion n’est pas autorisée.',
	'error.InvalidRequest.title': 'Requête invalide',
	'error.InvalidRequest.body': 'La requête était incomplète ou mal formée. Veuillez réessayer.',
	'error.Default.title': 'Erreur',
	'error.Default.body': 'Un problème est survenu.',
	'link.signin': 'Se connecter',
	'link.home': 'Retour à l’accueil',
	'passkey.signIn': 'Se connecter avec une clé d’accès',
	'passkey.emailLabel': 'E-mail (pour créer une clé d’accès)',
	'passkey.add': 'Ajouter une clé d’accès',
	'passkey.remove': 'Supprimer',
	'passkey.noscript': 'Les clés d’accès nécessitent JavaScript. Activez-le dans votre navigateur pour les utiliser.',
	'passkey.loading': 'Chargement de vos clés d’accès…',
	'passkey.signedOut': 'Connectez-vous pour gérer vos clés d’accès.',
	'passkey.empty': 'Vous n’avez encore aucune clé d’accès.',
	'passkey.added': 'Clé d’accès ajoutée.',
	'passkey.removed': 'Clé d’accès supprimée.',
	'passkey.name': 'Clé d’accès …{id}',
	'passkey.multiDevice': 'Synchronisée entre vos appareils',
	'passkey.singleDevice': 'Sur cet appareil uniquement',
	'passkey.backedUp': 'Sauvegardée',
	'passkey.notBackedUp': 'Non sauvegardée',
	'passkey.error.WebAuthnUnsupported': 'Ce navigateur ne peut pas utiliser de clé d’accès.',
	'passkey.error.WebAuthnCancelled': 'La demande de clé d’accès a été fermée. Rien n’a changé.',
	'passkey.error.WebAuthnVerificationError': 'Votre clé d’accès n’a pas pu être vérifiée. Veuillez réessayer.',
	'passkey.error.AccessDenied': 'Cette clé d’accès ne peut pas être utilisée pour ce compte.',
	'passkey.error.Default': 'Un problème est survenu avec la clé d’accès. Veuillez réessayer.',
	'signin.error.FreshSignInRequired': 'Pour votre sécurité, reconnectez-vous pour continuer.',
	'error.LastSignInMethod.title': 'C’est votre dernier moyen de connexion',
	'error.LastSignInMethod.body':
		'Ajoutez un autre moyen de connexion avant de retirer celui-ci, sinon vous ne pourriez plus vous connecter.',
	'account.confirmEmail.title': 'Confirmez votre nouvelle adresse e-mail',
	'account.confirmEmail.body': 'Utiliser {email} comme adresse e-mail de votre compte sur {host} ?',
	'account.confirmEmail.button': 'Changer mon adresse e-mail',
	'account.confirmEmail.hint':
		'Si vous n’avez pas demandé ce changement, fermez cette page : rien ne se passe tant que vous n’appuyez pas sur le bouton.',
	'account.email.confirm.subject': 'Confirmez votre nouvelle adresse e-mail sur {host}',
	'account.email.confirm.title': 'Confirmez votre nouvelle adresse e-mail',
	'account.email.confirm.intro':
		'Appuyez sur le bouton ci-dessous pour utiliser {email} pour votre compte sur {host}. Vous devez être connecté.',
	'account.email.confirm.button': 'Confirmer l’adresse',
	'account.email.confirm.ignore':
		'Si vous n’avez pas demandé ce changement, ignorez cet e-mail : rien ne change sans le lien.',
	'account.email.notice.subject': 'L’adresse e-mail de votre compte sur {host} va changer',
	'account.email.notice.title': 'Votre adresse e-mail va changer',
	'account.email.notice.intro':
		'Une personne connectée à votre compte sur {host} a demandé à remplacer son adresse e-mail par {email}. Un lien a été envoyé à cette adresse.',
	'account.email.notice.button': 'Vérifier votre compte',
	'account.email.notice.ignore':
		'Si ce n’était pas vous, connectez-vous et vérifiez votre compte : le changement n’a lieu que si le lien est utilisé par une personne connectée.',
	'account.email.inUse.subject': 'Quelqu’un a essayé d’utiliser votre adresse e-mail sur {host}',
	'account.email.inUse.title': 'Votre adresse e-mail est déjà utilisée',
	'account.email.inUse.intro':
		'Quelqu’un a demandé à utiliser {email} pour un compte sur {host}, mais un autre compte a déjà cette adresse. Rien n’a changé.',
	'account.email.inUse.button': 'Aller sur {host}',
	'account.email.inUse.ignore': 'Si ce n’était pas vous, vous pouvez ignorer cet e-mail.'
};
